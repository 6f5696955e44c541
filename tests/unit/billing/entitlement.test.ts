import { describe, expect, it } from 'vitest';
import { entitlementOf, graceEnd } from '../../../server/src/billing/entitlement.js';
import type { SubscriptionStanding } from '../../../server/src/billing/entitlement.js';

const NOW = new Date('2026-05-10T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const GRACE_DAYS = 7;

const plus = (status: string, pastDueSince: Date | null = null): SubscriptionStanding => ({
  status,
  role: 'plus',
  pastDueSince,
});
const verdict = (subscriptions: SubscriptionStanding[], granted = false): ReturnType<typeof entitlementOf> =>
  entitlementOf({ granted, subscriptions }, NOW, GRACE_DAYS);

describe('the Plus rule', () => {
  it('is free without subscriptions or a grant', () => {
    expect(verdict([])).toEqual({ role: null, granted: false, graceEndsAt: null });
  });

  it.each(['active', 'trialing'])('is Plus while a plus subscription is %s', (status) => {
    expect(verdict([plus(status)]).role).toBe('plus');
  });

  it.each(['canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused', 'something_new'])(
    'is free when the only plus subscription is %s',
    (status) => {
      expect(verdict([plus(status)]).role).toBeNull();
    },
  );

  it('ignores active subscriptions whose product has another role or none', () => {
    expect(verdict([{ status: 'active', role: 'pro', pastDueSince: null }]).role).toBeNull();
    expect(verdict([{ status: 'active', role: null, pastDueSince: null }]).role).toBeNull();
  });

  it('is Plus when any one subscription grants it', () => {
    expect(verdict([plus('canceled'), plus('active'), plus('unpaid')]).role).toBe('plus');
  });

  it('is Plus by an operator grant alone, and says so', () => {
    expect(verdict([], true)).toEqual({ role: 'plus', granted: true, graceEndsAt: null });
  });
});

describe('the grace period after a failed payment', () => {
  it('keeps Plus while past_due for less than the grace period, and tells when it ends', () => {
    const since = new Date(NOW.getTime() - 3 * DAY);
    expect(verdict([plus('past_due', since)])).toEqual({
      role: 'plus',
      granted: false,
      graceEndsAt: new Date(since.getTime() + 7 * DAY),
    });
  });

  it('ends Plus exactly when the grace period is over', () => {
    const since = new Date(NOW.getTime() - 7 * DAY);
    expect(verdict([plus('past_due', since)]).role).toBeNull();
    const justInside = new Date(NOW.getTime() - 7 * DAY + 1);
    expect(verdict([plus('past_due', justInside)]).role).toBe('plus');
  });

  it('gives no grace with a grace period of zero days', () => {
    expect(entitlementOf({ granted: false, subscriptions: [plus('past_due', NOW)] }, NOW, 0).role).toBeNull();
  });

  it('reports no grace end while an active subscription grants Plus anyway', () => {
    const since = new Date(NOW.getTime() - DAY);
    expect(verdict([plus('past_due', since), plus('active')]).graceEndsAt).toBeNull();
  });

  it('adds whole days to the moment the payment failed', () => {
    expect(graceEnd(new Date('2026-03-01T00:00:00Z'), 7)).toEqual(new Date('2026-03-08T00:00:00Z'));
  });
});
