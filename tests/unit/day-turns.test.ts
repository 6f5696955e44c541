import { describe, expect, it } from 'vitest';
import { DayTurns, untilMidnight } from '../../server/src/verses/day-turns.js';

describe('the turning of the day for verseOfTheDayChanged', () => {
  it("counts the time to the next midnight on the zone's own clock", () => {
    const at = new Date('2026-03-10T23:59:30.250Z');
    expect(untilMidnight('UTC', at)).toBe(29_750);
    // 18:59:30 in Chicago (UTC−5 in March after the change): five hours more.
    expect(untilMidnight('America/Chicago', at)).toBe(5 * 3_600_000 + 29_750);
    // 05:29:30 the next day in Kolkata (UTC+5:30).
    expect(untilMidnight('Asia/Kolkata', at)).toBe(18 * 3_600_000 + 30 * 60_000 + 29_750);
  });

  it('keeps a timer per time zone only while someone listens to it', async () => {
    const days = new DayTurns();
    const first = new AbortController();
    const second = new AbortController();
    const one = days.turns('Europe/Oslo', first.signal)[Symbol.asyncIterator]();
    const two = days.turns('Europe/Oslo', second.signal)[Symbol.asyncIterator]();
    const pending = [one.next(), two.next()];
    expect(days.watched).toBe(1);
    first.abort();
    expect(await pending[0]).toEqual({ done: true, value: undefined });
    expect(days.watched).toBe(1);
    second.abort();
    expect(await pending[1]).toEqual({ done: true, value: undefined });
    expect(days.watched).toBe(0);
    days.close();
  });
});
