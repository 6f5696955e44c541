import { describe, expect, it } from 'vitest';
import { AnswerFloor } from '../../server/src/accounts/answer-floor.js';

describe('the sign-up answer floor (B10)', () => {
  const clock = () => {
    let now = 0;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('is the minimum until new addresses take longer', () => {
    const time = clock();
    const floor = new AnswerFloor({ minimumMs: 300, now: time.now });
    expect(floor.floorMs()).toBe(300);
    for (let index = 0; index < 10; index++) floor.note(120);
    expect(floor.floorMs()).toBe(300);
  });

  it('rises to what nine in ten recent new addresses took', () => {
    const time = clock();
    const floor = new AnswerFloor({ minimumMs: 300, now: time.now });
    for (let ms = 410; ms <= 500; ms += 10) floor.note(ms);
    expect(floor.floorMs()).toBe(490);
  });

  it('keeps only the most recent readings', () => {
    const time = clock();
    const floor = new AnswerFloor({ minimumMs: 300, keep: 4, now: time.now });
    for (let index = 0; index < 4; index++) floor.note(900);
    for (let index = 0; index < 4; index++) floor.note(350);
    expect(floor.floorMs()).toBe(350);
  });

  it('comes back down once the slow readings are old', () => {
    const time = clock();
    const floor = new AnswerFloor({ minimumMs: 300, maxAgeMs: 60_000, now: time.now });
    floor.note(800);
    expect(floor.floorMs()).toBe(800);
    time.advance(60_001);
    expect(floor.floorMs()).toBe(300);
  });
});
