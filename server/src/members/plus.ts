import { appError, ErrorCode } from '../graphql/errors.js';
import { isPlusRole } from '../rules/plan.js';
import type { UserRecord } from './user.entity.js';

/** Whether the member has Lampstand Plus, by the stored role that billing keeps (rules/plan.ts). */
export function isPlus(owner: Pick<UserRecord, 'stripeRole'>): boolean {
  return isPlusRole(owner.stripeRole);
}

/** Throws PLUS_REQUIRED unless the member has Plus. */
export function requirePlus(owner: Pick<UserRecord, 'stripeRole'>, feature: string): void {
  if (!isPlus(owner)) {
    throw appError(ErrorCode.PLUS_REQUIRED, `${feature} is part of Lampstand Plus.`, { feature });
  }
}
