import { appError, ErrorCode } from '../graphql/errors.js';
import type { UserRecord } from './user.entity.js';

/** The role a member's billing grants (`users.stripe_role`); `plus` unlocks the Plus features. */
export const PLUS_ROLE = 'plus';

/** Whether the member has Lampstand Plus, by the stored role that billing keeps. */
export function isPlus(owner: Pick<UserRecord, 'stripeRole'>): boolean {
  return owner.stripeRole === PLUS_ROLE;
}

/** Throws PLUS_REQUIRED unless the member has Plus. */
export function requirePlus(owner: Pick<UserRecord, 'stripeRole'>, feature: string): void {
  if (!isPlus(owner)) {
    throw appError(ErrorCode.PLUS_REQUIRED, `${feature} is part of Lampstand Plus.`, { feature });
  }
}
