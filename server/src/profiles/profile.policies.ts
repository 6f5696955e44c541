import type { UserRecord } from '../members/user.entity.js';
import { requirePlus } from '../members/plus.js';
import { PLUS_BUTTONS, PLUS_THEMES } from './appearance.js';
import type { ButtonStyle, Theme } from './appearance.js';
import type { ProfileRecord } from './profile.entity.js';

/** Throws PLUS_REQUIRED when a free member picks a Plus-only theme or button style. */
export function requireAllowedAppearance(
  owner: Pick<UserRecord, 'stripeRole'>,
  choice: { theme?: Theme | null; button?: ButtonStyle | null },
): void {
  if (choice.theme != null && PLUS_THEMES.has(choice.theme)) requirePlus(owner, `The ${choice.theme} theme`);
  if (choice.button != null && PLUS_BUTTONS.has(choice.button)) requirePlus(owner, `The ${choice.button} style`);
}

/** Visitors see a profile only when its owner keeps it both active and public. */
export function isVisibleToPublic(profile: Pick<ProfileRecord, 'isActive' | 'isPublic'>): boolean {
  return profile.isActive && profile.isPublic;
}
