/**
 * Who may see and change a member's page, as data: each rule takes the records (and the viewer)
 * and answers allowed or why not, so the services, the operator's tools and tests read the same
 * answer (`@rules/page-access`). The services turn a refusal into their error or a not-found.
 */

/** What the page rules read of a member record (`users`). */
export interface MemberState {
  /** Set when deletion started; the member is gone for everyone from then on. */
  deletingAt: Date | null;
  hiddenReason: string | null;
  hiddenAt: Date | null;
  bannedUntil: Date | null;
}

/** What the page rules read of a page record (`profiles`): the owner's own switches. */
export interface PageSwitches {
  uid: string;
  isActive: boolean;
  isPublic: boolean;
}

/** A page as the rules see it: either record may be missing. */
export interface PageRecords {
  profile: PageSwitches | null;
  owner: MemberState | null;
}

/** Why a rule refuses. */
export type Refusal =
  /** There is no such page. */
  | 'noPage'
  /** The member no longer exists or is being deleted. */
  | 'memberGone'
  /** An operator hid the page or banned its member. */
  | 'heldByOperator'
  /** The owner made the page inactive or private. */
  | 'closedByOwner'
  /** The viewer is not the page's owner. */
  | 'notOwner';

/** A rule's answer. */
export type Access = { allowed: true } | { allowed: false; why: Refusal };

const ALLOWED: Access = { allowed: true };
const refused = (why: Refusal): Access => ({ allowed: false, why });

/**
 * The live-member rule: a member being deleted is gone. From the moment deletion starts
 * (`deleting_at` is set) the member's page, links, stats, billing and sessions behave as if the
 * account did not exist, even while the identity account and the records are still being removed.
 */
export function isLiveMember<T extends Pick<MemberState, 'deletingAt'>>(
  member: T | null | undefined,
): member is T & { deletingAt: null } {
  return member != null && !member.deletingAt;
}

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
export function pageHold(
  member: Pick<MemberState, 'hiddenReason' | 'hiddenAt' | 'bannedUntil'>,
  now = new Date(),
): PageHold | null {
  const banned = member.bannedUntil !== null && member.bannedUntil > now;
  if (member.hiddenReason === null && !banned) return null;
  return {
    reason: member.hiddenReason ?? BAN_REASON,
    since: member.hiddenAt,
    bannedUntil: banned ? member.bannedUntil : null,
  };
}

/** Whether the owner's own switches open the page to visitors: both active and public. */
export function isOpenByOwner(profile: Pick<PageSwitches, 'isActive' | 'isPublic'>): boolean {
  return profile.isActive && profile.isPublic;
}

/**
 * Whether visitors may see what a member shows whatever the page's switches say (their photo,
 * which the owner's own editor shows on a closed page too): the member is live and not held.
 */
export function canVisitMember(owner: MemberState | null, now = new Date()): Access {
  if (!isLiveMember(owner)) return refused('memberGone');
  return pageHold(owner, now) === null ? ALLOWED : refused('heldByOperator');
}

/**
 * Whether visitors may see a page: it exists, its member is live and not held by an operator, and
 * the owner keeps it active and public. The same for every viewer, the owner too: a page's public
 * answer is cached and shared, and owners see their page through the editor.
 */
export function canVisit(page: PageRecords, now = new Date()): Access {
  if (page.profile === null) return refused('noPage');
  const member = canVisitMember(page.owner, now);
  if (!member.allowed) return member;
  return isOpenByOwner(page.profile) ? ALLOWED : refused('closedByOwner');
}

/**
 * Whether `viewer` may change a page (its settings, links, photo): only its owner, while the
 * member is live. An operator's hold does not stop the owner's changes.
 */
export function canChangePage(viewer: { id: string }, page: PageRecords): Access {
  if (page.profile === null) return refused('noPage');
  if (!isLiveMember(page.owner)) return refused('memberGone');
  return page.profile.uid === viewer.id ? ALLOWED : refused('notOwner');
}
