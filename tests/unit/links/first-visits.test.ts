import { describe, expect, it } from 'vitest';
import { FirstVisits } from '../../../server/src/links/first-visits.js';

const visitor = { address: '198.51.100.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' };

describe('FirstVisits (B15)', () => {
  it('sees a visitor once a day per scope, and again the next day under a new key', async () => {
    const visits = new FirstVisits();
    const morning = new Date('2026-11-27T08:00:00Z');
    const evening = new Date('2026-11-27T23:59:59Z');
    const nextDay = new Date('2026-11-28T00:00:01Z');
    expect(await visits.first('view:a', visitor, morning)).toBe(true);
    expect(await visits.first('view:a', visitor, evening)).toBe(false);
    // Another page, another address or another browser is another sighting.
    expect(await visits.first('view:b', visitor, evening)).toBe(true);
    expect(await visits.first('view:a', { ...visitor, address: '198.51.100.8' }, evening)).toBe(true);
    expect(await visits.first('view:a', { ...visitor, userAgent: `${visitor.userAgent} Edg/131.0` }, evening)).toBe(
      true,
    );
    expect(await visits.first('view:a', visitor, nextDay)).toBe(true);
    expect(await visits.first('view:a', visitor, nextDay)).toBe(false);
  });

  it('without Redis, counts in each process alone: each has its own random key', async () => {
    const at = new Date('2026-11-27T08:00:00Z');
    const [one, two] = [new FirstVisits(), new FirstVisits()];
    expect(await one.first('click:x', visitor, at)).toBe(true);
    expect(await two.first('click:x', visitor, at)).toBe(true);
  });
});
