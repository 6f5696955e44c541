import type { BrowserContext, Page } from 'playwright-core';

interface WatchedShifts {
  shifts: number[];
  observer: PerformanceObserver;
}

/** Records the layout shifts of every page `target` opens from then on, from their first moment. */
export async function watchLayoutShifts(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(() => {
    const shifts: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    });
    observer.observe({ type: 'layout-shift', buffered: true });
    Object.assign(window, { watchedShifts: { shifts, observer } });
  });
}

/**
 * The layout shifts of `page` so far, once it has drawn two more frames: a change made before the
 * call is laid out in the first, and the shift it caused is reported by the second. Waits for the
 * page's frames rather than a time, so that a busy machine only makes it slower.
 */
export async function layoutShifts(page: Page, options: { forget?: boolean } = {}): Promise<number[]> {
  return page.evaluate(async ({ forget }) => {
    await new Promise<void>((resolve) => {
      requestAnimationFrame(() => {
        requestAnimationFrame(() => {
          resolve();
        });
      });
    });
    const { shifts, observer } = (window as unknown as { watchedShifts: WatchedShifts }).watchedShifts;
    for (const entry of observer.takeRecords()) shifts.push((entry as unknown as { value: number }).value);
    const seen = [...shifts];
    if (forget) shifts.length = 0;
    return seen;
  }, options);
}

/** The sum of the layout shifts of `page` so far (see `layoutShifts`). */
export async function totalLayoutShift(page: Page): Promise<number> {
  return (await layoutShifts(page)).reduce((total, value) => total + value, 0);
}
