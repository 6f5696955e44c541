import { afterAll, beforeAll } from 'vitest';

/**
 * What `start` makes (a test app, a billing app…), started before the file's tests and closed
 * after them, so that a file does not write the pair of hooks again. Call it at the top of the
 * file; read the result inside the file's hooks and tests, where it stands for what was started
 * (before the start, reading it throws).
 */
export function forTheFile<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (!started) throw new Error('It starts before the tests (beforeAll): read it inside them.');
      return Reflect.get(started, key) as unknown;
    },
  });
}
