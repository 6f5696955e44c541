import { isWithinSchedule } from '@rules/link-schedule';
import type { OwnLink } from './use-own-links';

/**
 * The links the page shows visitors now, as the server decides (server/src/links/link.policies.ts):
 * hidden ones never; with Plus only inside their schedule and with their highlight; without Plus
 * schedules and highlights are kept but do not apply. A page without a time zone reads UTC.
 */
export function linksShownNow(
  links: readonly OwnLink[],
  page: { plus: boolean; timeZone: string | null },
  now: Date = new Date(),
): OwnLink[] {
  return links
    .filter(
      (link) =>
        !link.hidden &&
        (!page.plus ||
          isWithinSchedule(
            { from: link.visibleFrom ?? null, until: link.visibleUntil ?? null },
            page.timeZone ?? 'UTC',
            now,
          )),
    )
    .map((link) => ({ ...link, highlighted: page.plus && link.highlighted }));
}
