import { describe, expect, it } from 'vitest';
import { CapacityFull, HeavyCapacity } from '../../../server/src/work/capacity.js';

/** A task that runs until `finish` is called, recording when it started. */
function held(started: string[], name: string): { task: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    task: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish,
  };
}

describe('the heavy-work capacity', () => {
  it('runs as many tasks as it has slots, queues the next ones in order, and refuses past the queue', async () => {
    const capacity = new HeavyCapacity(1, 2);
    const started: string[] = [];
    const [a, b, c] = [held(started, 'a'), held(started, 'b'), held(started, 'c')];
    const running = [capacity.run(a.task), capacity.run(b.task), capacity.run(c.task)];
    await Promise.resolve();
    expect(started).toEqual(['a']);
    expect(capacity.load).toEqual({ running: 1, waiting: 2 });

    // Full: the next is refused at once, with how long to wait, and never started.
    const refused = await capacity.run(() => Promise.resolve('d')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CapacityFull);
    expect((refused as CapacityFull).retryAfterSeconds).toBeGreaterThanOrEqual(1);

    a.finish();
    b.finish();
    c.finish();
    expect(await Promise.all(running)).toEqual(['a', 'b', 'c']);
    expect(started).toEqual(['a', 'b', 'c']);
    expect(capacity.load).toEqual({ running: 0, waiting: 0 });
    expect(await capacity.run(() => Promise.resolve('e'))).toBe('e');
  });

  it('frees the slot of a task that fails', async () => {
    const capacity = new HeavyCapacity(1, 0);
    await expect(capacity.run(() => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    expect(capacity.load).toEqual({ running: 0, waiting: 0 });
    expect(await capacity.run(() => Promise.resolve('next'))).toBe('next');
  });
});

describe('the heavy-work capacity with a lane per kind', () => {
  it('bounds all lanes together, refuses per lane, and passes a freed place to the other lane in turn', async () => {
    const capacity = new HeavyCapacity(1, 1);
    const [cards, uploads] = [capacity.lane(), capacity.lane()];
    const started: string[] = [];
    const [a, b, c] = [held(started, 'card a'), held(started, 'card b'), held(started, 'upload c')];
    const running = [cards.run(a.task), cards.run(b.task), uploads.run(c.task)];
    await Promise.resolve();
    expect(started).toEqual(['card a']);
    expect(capacity.load).toEqual({ running: 1, waiting: 2 });
    // The cards' lane is full; the uploads' lane is not held to it.
    await expect(cards.run(() => Promise.resolve('card d'))).rejects.toBeInstanceOf(CapacityFull);
    a.finish();
    await running[0];
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The next lane in turn (uploads) gets the place before the card that waited first.
    expect(started).toEqual(['card a', 'upload c']);
    c.finish();
    await running[2];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(['card a', 'upload c', 'card b']);
    b.finish();
    expect(await Promise.all(running)).toEqual(['card a', 'card b', 'upload c']);
    expect(capacity.load).toEqual({ running: 0, waiting: 0 });
  });
});
