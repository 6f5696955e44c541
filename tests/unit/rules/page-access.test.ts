import { describe, expect, it } from 'vitest';
import type { MemberState, PageSwitches } from '../../../server/src/rules/page-access.js';
import { canChangePage, canVisit, canVisitMember, pageHold } from '../../../server/src/rules/page-access.js';

const now = new Date('2026-11-27T12:00:00Z');
const member = (change: Partial<MemberState> = {}): MemberState => ({
  deletingAt: null,
  hiddenReason: null,
  hiddenAt: null,
  bannedUntil: null,
  ...change,
});
const page = (change: Partial<PageSwitches> = {}): PageSwitches => ({
  uid: 'grace',
  isActive: true,
  isPublic: true,
  ...change,
});

describe('who may visit a page', () => {
  it('lets visitors see an active, public page of a live member no operator holds', () => {
    expect(canVisit({ profile: page(), owner: member() }, now)).toEqual({ allowed: true });
  });

  it.each([
    ['there is no page', { profile: null, owner: member() }, 'noPage'],
    ['the member record is missing', { profile: page(), owner: null }, 'memberGone'],
    ['the member is being deleted', { profile: page(), owner: member({ deletingAt: now }) }, 'memberGone'],
    [
      'an operator hid it',
      { profile: page(), owner: member({ hiddenReason: 'Spam', hiddenAt: now }) },
      'heldByOperator',
    ],
    [
      'its member is banned',
      { profile: page(), owner: member({ bannedUntil: new Date('2026-12-01') }) },
      'heldByOperator',
    ],
    ['the owner made it inactive', { profile: page({ isActive: false }), owner: member() }, 'closedByOwner'],
    ['the owner made it private', { profile: page({ isPublic: false }), owner: member() }, 'closedByOwner'],
  ])('refuses when %s, and says why', (_case, records, why) => {
    expect(canVisit(records, now)).toEqual({ allowed: false, why });
  });

  it('lets the page back once a ban has ended', () => {
    expect(canVisit({ profile: page(), owner: member({ bannedUntil: new Date('2026-11-01') }) }, now).allowed).toBe(
      true,
    );
  });

  it("shows a member's own things on a closed page, but not a held or leaving member's", () => {
    expect(canVisitMember(member(), now)).toEqual({ allowed: true });
    expect(canVisitMember(member({ hiddenReason: 'Spam' }), now)).toEqual({ allowed: false, why: 'heldByOperator' });
    expect(canVisitMember(member({ deletingAt: now }), now)).toEqual({ allowed: false, why: 'memberGone' });
  });
});

describe('who may change a page', () => {
  it('lets the owner change their page, even while an operator holds it', () => {
    expect(canChangePage({ id: 'grace' }, { profile: page(), owner: member({ hiddenReason: 'Spam' }) })).toEqual({
      allowed: true,
    });
  });

  it('refuses anyone else, a leaving member, and a page that is not there', () => {
    expect(canChangePage({ id: 'mallory' }, { profile: page(), owner: member() })).toEqual({
      allowed: false,
      why: 'notOwner',
    });
    expect(canChangePage({ id: 'grace' }, { profile: page(), owner: member({ deletingAt: now }) })).toEqual({
      allowed: false,
      why: 'memberGone',
    });
    expect(canChangePage({ id: 'grace' }, { profile: null, owner: member() })).toEqual({
      allowed: false,
      why: 'noPage',
    });
  });
});

describe("an operator's hold", () => {
  it("gives the operator's reason, or the ban's, with the ban's end while it lasts", () => {
    const until = new Date('2026-12-01T00:00:00Z');
    expect(pageHold(member(), now)).toBeNull();
    expect(pageHold(member({ hiddenReason: 'Spam', hiddenAt: now }), now)).toEqual({
      reason: 'Spam',
      since: now,
      bannedUntil: null,
    });
    expect(pageHold(member({ bannedUntil: until }), now)).toEqual({
      reason: 'Your account is suspended.',
      since: null,
      bannedUntil: until,
    });
  });
});
