import { normalUsername } from '@rules/names';
import type { ButtonStyle, Layout, Theme, Translation, UpdateProfileInput } from '../../gql/schema-types';

/** What the editor's form holds: the page's words, address, look and visibility. */
export interface Draft {
  name: string;
  bio: string;
  username: string;
  theme: Theme;
  layout: Layout;
  button: ButtonStyle;
  translation: Translation;
  isPublic: boolean;
  isActive: boolean;
}

export function draftOf(profile: Draft): Draft {
  const { name, bio, username, theme, layout, button, translation, isPublic, isActive } = profile;
  return { name, bio, username, theme, layout, button, translation, isPublic, isActive };
}

/** The profile fields that differ between what is saved and the draft. */
export function changesOf(saved: Draft, draft: Draft): UpdateProfileInput {
  const input: UpdateProfileInput = {};
  if (draft.name.trim() !== saved.name) input.name = draft.name.trim();
  if (draft.bio.trim() !== saved.bio) input.bio = draft.bio.trim();
  if (draft.theme !== saved.theme) input.theme = draft.theme;
  if (draft.layout !== saved.layout) input.layout = draft.layout;
  if (draft.button !== saved.button) input.button = draft.button;
  if (draft.translation !== saved.translation) input.translation = draft.translation;
  if (draft.isPublic !== saved.isPublic) input.isPublic = draft.isPublic;
  if (draft.isActive !== saved.isActive) input.isActive = draft.isActive;
  return input;
}

/** Whether the draft holds anything not saved yet. */
export function hasChanges(saved: Draft, draft: Draft): boolean {
  return normalUsername(draft.username) !== saved.username || Object.keys(changesOf(saved, draft)).length > 0;
}
