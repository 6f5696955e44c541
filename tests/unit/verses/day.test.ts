import { describe, expect, it } from 'vitest';
import { parseIsoDate, resolveDay, todayIn } from '../../../server/src/verses/day.js';

const badInput = (field: string) =>
  expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field }) });

describe('calendar days', () => {
  it('accepts real ISO dates, leap days included', () => {
    expect(parseIsoDate('2028-02-29')).toEqual({ date: '2028-02-29', monthDay: '02-29' });
    expect(parseIsoDate('2026-12-31')).toEqual({ date: '2026-12-31', monthDay: '12-31' });
  });

  it.each(['2027-02-29', '2026-13-01', '2026-04-31', '2026-1-1', '20260101', 'today', '0000-01-01'])(
    'rejects %j as a date',
    (value) => {
      expect(() => parseIsoDate(value)).toThrow(badInput('date'));
    },
  );

  it("takes today's date in the visitor's time zone", () => {
    const now = new Date('2026-11-21T23:30:00Z');
    expect(todayIn('Pacific/Auckland', now).date).toBe('2026-11-22');
    expect(todayIn('America/Los_Angeles', now).date).toBe('2026-11-21');
    expect(todayIn('UTC', now).date).toBe('2026-11-21');
  });

  it('rejects a time zone that does not exist', () => {
    expect(() => todayIn('Mars/Olympus_Mons')).toThrow(badInput('timeZone'));
  });

  it('prefers an explicit date, and falls back to UTC when given nothing', () => {
    const now = new Date('2026-11-21T23:30:00Z');
    expect(resolveDay({ date: '2028-02-29', timeZone: 'Pacific/Auckland' }, now).date).toBe('2028-02-29');
    expect(resolveDay({}, now).date).toBe('2026-11-21');
    expect(() => resolveDay({ date: '2028-02-29', timeZone: 'Nowhere/City' }, now)).toThrow(badInput('timeZone'));
  });
});
