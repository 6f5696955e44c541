import { describe, expect, it } from 'vitest';
import { readIsoDate } from '../../../server/src/rules/dates.js';
import { linksShownNow } from '../../../server/src/rules/links.js';
import { isPlusRole, planName } from '../../../server/src/rules/plan.js';
import { birthdayRefusal, EMAIL_SHAPE } from '../../../server/src/rules/signup.js';
import { isLowerCaseUuid, isUuid } from '../../../server/src/rules/uuid.js';

describe('calendar dates', () => {
  it('reads real ISO dates, leap days included', () => {
    expect(readIsoDate('2028-02-29')).toEqual({ date: '2028-02-29', monthDay: '02-29' });
  });

  it.each(['2027-02-29', '2026-13-01', '2026-04-31', '2026-1-1', '0000-01-01', 'today', ''])(
    'gives null for %j',
    (value) => {
      expect(readIsoDate(value)).toBeNull();
    },
  );
});

describe('the birthday at sign-up', () => {
  const today = '2026-11-27';

  it('takes a real date at least 13 years back, to the day', () => {
    expect(birthdayRefusal('2013-11-27', today)).toBeNull();
    expect(birthdayRefusal('1950-01-01', today)).toBeNull();
  });

  it.each([
    ['2013-11-28', 'tooYoung'],
    ['2026-11-27', 'notPast'],
    ['2030-01-01', 'notPast'],
    ['2013-02-30', 'notADate'],
    ['0000-01-01', 'notADate'],
    ['27/11/2000', 'notADate'],
  ])('refuses %j as %s', (birthday, why) => {
    expect(birthdayRefusal(birthday, today)).toBe(why);
  });

  it('lets a 29 February birthday come of age on 1 March in a common year', () => {
    expect(birthdayRefusal('2012-02-29', '2025-02-28')).toBe('tooYoung');
    expect(birthdayRefusal('2012-02-29', '2025-03-01')).toBeNull();
  });
});

describe('the shape of an address', () => {
  it.each(['grace@example.com', 'a.b+c@sub.example.org'])('takes %j', (address) => {
    expect(EMAIL_SHAPE.test(address)).toBe(true);
  });

  it.each(['grace', 'grace@example', 'gr ace@example.com', '@example.com', 'grace@@example.com'])(
    'refuses %j',
    (address) => {
      expect(EMAIL_SHAPE.test(address)).toBe(false);
    },
  );
});

describe('the plan a role means', () => {
  it('names Plus for the Plus role and free for none', () => {
    expect(planName('plus')).toBe('plus');
    expect(planName(null)).toBe('free');
    expect(isPlusRole('plus')).toBe(true);
    expect(isPlusRole(null)).toBe(false);
  });
});

describe('identifiers', () => {
  const id = '0b7c1f2e-3d4a-4b5c-8d6e-7f8091a2b3c4';

  it('knows a UUID in either case, and the lower case the app writes', () => {
    expect(isUuid(id)).toBe(true);
    expect(isUuid(id.toUpperCase())).toBe(true);
    expect(isLowerCaseUuid(id)).toBe(true);
    expect(isLowerCaseUuid(id.toUpperCase())).toBe(false);
  });

  it.each(['', 'grace', `${id}0`, id.replaceAll('-', ''), ` ${id}`])('refuses %j', (value) => {
    expect(isUuid(value)).toBe(false);
  });
});

describe("the links a page's visitors see", () => {
  const links = [
    { id: 'a', hidden: false, visibleFrom: null, visibleUntil: null, highlighted: true },
    { id: 'b', hidden: true, visibleFrom: null, visibleUntil: null, highlighted: false },
    { id: 'c', hidden: false, visibleFrom: '2026-12-24T18:00', visibleUntil: null, highlighted: false },
  ];
  const now = new Date('2026-11-27T12:00:00Z');

  it('leaves out hidden links and, with Plus, those outside their schedule, keeping the highlight', () => {
    expect(linksShownNow(links, { plus: true, timeZone: 'UTC' }, now)).toEqual([links[0]]);
  });

  it('without Plus shows scheduled links and drops every highlight', () => {
    expect(
      linksShownNow(links, { plus: false, timeZone: 'UTC' }, now).map(({ id, highlighted }) => [id, highlighted]),
    ).toEqual([
      ['a', false],
      ['c', false],
    ]);
  });
});
