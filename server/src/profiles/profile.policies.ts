import type { UserRecord } from '../accounts/user.entity.js';
import { appError, ErrorCode } from '../graphql/errors.js';
import { PLUS_BUTTONS, PLUS_THEMES } from './appearance.js';
import type { ButtonStyle, Theme } from './appearance.js';
import type { ProfileRecord } from './profile.entity.js';

/** The role a member's billing grants (`users.stripe_role`); `plus` unlocks the Plus features. */
export const PLUS_ROLE = 'plus';

export function isPlus(owner: Pick<UserRecord, 'stripeRole'>): boolean {
  return owner.stripeRole === PLUS_ROLE;
}

/** Throws PLUS_REQUIRED unless the member has Plus. */
export function requirePlus(owner: Pick<UserRecord, 'stripeRole'>, feature: string): void {
  if (!isPlus(owner)) {
    throw appError(ErrorCode.PLUS_REQUIRED, `${feature} is part of Lampstand Plus.`, { feature });
  }
}

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
