import { describe, expect, it } from 'vitest';
import { refusal } from '../../support/refusal.js';
import { checkSchedule, parseLocalTime } from '../../../server/src/links/link-schedule.js';
import { localTimeIn } from '../../../server/src/rules/dates.js';
import { isHighlightedNow, isShownNow, isWithinSchedule } from '../../../server/src/rules/links.js';
import { canonicalTimeZone } from '../../../server/src/profiles/time-zone.js';

describe('schedule times', () => {
  it.each([
    ['2026-12-24T18:00', '2026-12-24T18:00'],
    [' 2026-12-24T18:00 ', '2026-12-24T18:00'],
    ['2026-12-24T18:00:00', '2026-12-24T18:00'],
    ['2028-02-29T00:00', '2028-02-29T00:00'],
  ])('reads %j as %j', (typed, stored) => {
    expect(parseLocalTime(typed, 'input.visibleFrom')).toBe(stored);
  });

  it.each(['2027-02-29T10:00', '2026-12-24T24:00', '2026-12-24T18:60', '2026-12-24 18:00', '2026-12-24', 'soon', ''])(
    'refuses %j with the field named',
    (typed) => {
      expect(refusal(() => parseLocalTime(typed, 'input.visibleUntil'))).toMatchObject({
        code: 'BAD_USER_INPUT',
        field: 'input.visibleUntil',
      });
    },
  );

  it('refuses a window that ends before or when it starts', () => {
    expect(refusal(() => checkSchedule({ from: '2026-12-24T18:00', until: '2026-12-24T18:00' }))).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.visibleUntil',
    });
    expect(checkSchedule({ from: '2026-12-24T18:00', until: null })).toEqual({ from: '2026-12-24T18:00', until: null });
  });
});

describe('the clock of a time zone', () => {
  it('reads the wall clock of the zone, daylight saving included', () => {
    const instant = new Date('2026-01-15T00:30:00Z');
    expect(localTimeIn('UTC', instant)).toBe('2026-01-15T00:30');
    expect(localTimeIn('Pacific/Auckland', instant)).toBe('2026-01-15T13:30');
    expect(localTimeIn('America/New_York', instant)).toBe('2026-01-14T19:30');
    expect(localTimeIn('America/New_York', new Date('2026-07-01T12:00:00Z'))).toBe('2026-07-01T08:00');
  });

  it('shows a link from its start (included) until its end (not included)', () => {
    const schedule = { from: '2026-12-24T18:00', until: '2026-12-26T00:00' };
    // Oslo is an hour ahead of UTC in December.
    expect(isWithinSchedule(schedule, 'Europe/Oslo', new Date('2026-12-24T16:59:00Z'))).toBe(false);
    expect(isWithinSchedule(schedule, 'Europe/Oslo', new Date('2026-12-24T17:00:00Z'))).toBe(true);
    expect(isWithinSchedule(schedule, 'Europe/Oslo', new Date('2026-12-25T22:59:00Z'))).toBe(true);
    expect(isWithinSchedule(schedule, 'Europe/Oslo', new Date('2026-12-25T23:00:00Z'))).toBe(false);
    // The same instant in UTC is still before the start.
    expect(isWithinSchedule(schedule, 'UTC', new Date('2026-12-24T17:00:00Z'))).toBe(false);
  });

  it('takes an open end as no limit on that side', () => {
    const at = new Date('2026-06-01T12:00:00Z');
    expect(isWithinSchedule({ from: null, until: null }, 'UTC', at)).toBe(true);
    expect(isWithinSchedule({ from: '2026-06-01T12:00', until: null }, 'UTC', at)).toBe(true);
    expect(isWithinSchedule({ from: null, until: '2026-06-01T12:00' }, 'UTC', at)).toBe(false);
  });
});

describe('what visitors see of a link', () => {
  const later = { hidden: false, visibleFrom: '2999-01-01T00:00', visibleUntil: null, highlighted: true };

  it('applies schedules and the highlight only while the owner has Plus', () => {
    const plus = { plus: true, timeZone: 'UTC' };
    const free = { plus: false, timeZone: 'UTC' };
    expect(isShownNow(later, plus)).toBe(false);
    expect(isShownNow(later, free)).toBe(true);
    expect(isHighlightedNow(later, plus)).toBe(true);
    expect(isHighlightedNow(later, free)).toBe(false);
  });

  it('never shows a hidden link', () => {
    expect(isShownNow({ ...later, hidden: true, visibleFrom: null }, { plus: false, timeZone: 'UTC' })).toBe(false);
  });
});

describe('time zones', () => {
  it('are kept in their canonical spelling', () => {
    expect(canonicalTimeZone('europe/oslo', 'input.timeZone')).toBe('Europe/Oslo');
    expect(canonicalTimeZone(' UTC ', 'input.timeZone')).toBe('UTC');
  });

  it.each(['Mars/Olympus_Mons', '', 'x'.repeat(80)])('refuses %j', (zone) => {
    expect(refusal(() => canonicalTimeZone(zone, 'input.timeZone'))).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.timeZone',
    });
  });
});
