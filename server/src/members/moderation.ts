import type { UserRecord } from './user.entity.js';

/** What the moderation rule reads of a member record. */
type ModerationState = Pick<UserRecord, 'hiddenReason' | 'hiddenAt' | 'bannedUntil'>;

/** Why visitors cannot see a member's page because of an operator; null when nothing stops it. */
export interface PageHold {
  /** The operator's reason for hiding the page, or the ban's. */
  reason: string;
  /** When the operator hid the page, or null when only a ban holds it. */
  since: Date | null;
  /** When the ban ends; null when the page is hidden without a ban (or the ban never ends). */
  bannedUntil: Date | null;
}

/** The reason a banned member's page shows them when the operator gave no other. */
const BAN_REASON = 'Your account is suspended.';

/**
 * The moderation rule: a page an operator hid, or whose owner is banned, is shown to nobody but
 * its owner, whatever the owner's own visibility switches say (the member cannot undo it).
 */
export function pageHold(member: ModerationState, now = new Date()): PageHold | null {
  const banned = member.bannedUntil !== null && member.bannedUntil > now;
  if (member.hiddenReason === null && !banned) return null;
  return {
    reason: member.hiddenReason ?? BAN_REASON,
    since: member.hiddenAt,
    bannedUntil: banned ? member.bannedUntil : null,
  };
}

/** True when no operator decision keeps the member's page from visitors (see `pageHold`). */
export function isPageAllowed(member: ModerationState): boolean {
  return pageHold(member) === null;
}
