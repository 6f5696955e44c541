import { DEFAULT_TRANSLATION } from '../verses/translation.js';
import type { Verse } from '../verses/verse.types.js';
import { DEFAULT_APPEARANCE } from './appearance.js';
import { ProfileRecord } from './profile.entity.js';

/**
 * A new member's profile with the original's defaults: name from the first name, button
 * `normalButton`, layout `row`, theme `lightTheme`, active and public, welcome not yet done, and
 * the default verse (Hebrews 3:4) dated on the member's sign-up day.
 */
export function newProfile(input: {
  uid: string;
  name: string;
  username: string;
  verse: Verse;
  day: string;
  now: Date;
}): ProfileRecord {
  return Object.assign(new ProfileRecord(), {
    uid: input.uid,
    name: input.name,
    username: input.username,
    button: DEFAULT_APPEARANCE.button,
    layout: DEFAULT_APPEARANCE.layout,
    theme: DEFAULT_APPEARANCE.theme,
    joined: input.now,
    isActive: true,
    isPublic: true,
    welcome: false,
    verseId: input.verse.id,
    verseRef: input.verse.ref,
    verseText: input.verse.text,
    verseDay: input.day,
    versePinned: false,
    timeZone: null,
    translation: DEFAULT_TRANSLATION,
    updatedAt: input.now,
  });
}
