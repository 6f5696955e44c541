import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { sendSharedImage } from '../http/answer-headers.js';
import { countableVisitor } from '../http/visits.js';
import { isLowerCaseUuid } from '../rules/uuid.js';
import { LINK_ICONS, PLATFORM_ICONS } from './link-icons.js';
import type { LinkService } from './link.service.js';
import type { PageStatsService } from './page-stats.service.js';

/** Generic marks (24×24, drawn as Simple Icons' are: one path, no fill of its own). */
const GENERIC_PATHS: Record<'email' | 'phone' | 'link', string> = {
  email: 'M2 5h20v14H2zm2 2v.5l8 5 8-5V7zm16 2.8-8 5-8-5V17h16z',
  phone:
    'M6.6 10.8a15.2 15.2 0 0 0 6.6 6.6l2.2-2.2c.3-.3.7-.4 1-.2 1.1.4 2.3.6 3.6.6.6 0 1 .4 1 1V20c0 .6-.4 1-1 1A17 17 0 0 1 3 4c0-.6.4-1 1-1h3.5c.6 0 1 .4 1 1 0 1.3.2 2.5.6 3.6.1.3 0 .7-.2 1z',
  link: 'M10.6 13.4a1 1 0 0 1 0-1.4l3.5-3.5a1 1 0 1 1 1.4 1.4L12 13.4a1 1 0 0 1-1.4 0zM8.5 19.1a4.5 4.5 0 0 1-3.2-7.7l2.1-2.1a1 1 0 0 1 1.4 1.4l-2.1 2.1a2.5 2.5 0 0 0 3.5 3.5l2.1-2.1a1 1 0 0 1 1.4 1.4l-2.1 2.2a4.5 4.5 0 0 1-3.1 1.3zm7.5-4.4a1 1 0 0 1-.7-1.7l2.1-2.1a2.5 2.5 0 0 0-3.5-3.5l-2.1 2.1a1 1 0 0 1-1.4-1.4l2.1-2.1a4.5 4.5 0 0 1 6.4 6.4l-2.1 2.1a1 1 0 0 1-.8.2z',
};

/** The SVG of every icon a link can show, read once: Simple Icons' files for platforms, ours for the rest. */
function loadIcons(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const icons = new Map<string, string>();
  for (const icon of LINK_ICONS) {
    const svg =
      icon in PLATFORM_ICONS
        ? readFileSync(require.resolve(`simple-icons/icons/${icon}.svg`), 'utf8')
        : `<svg role="img" viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><path d="${GENERIC_PATHS[icon as keyof typeof GENERIC_PATHS]}"/></svg>`;
    icons.set(`${icon}.svg`, svg);
  }
  return icons;
}

/**
 * `/l/<id>`: a visitor following a link on a page. Answers 302 to the link's address and counts
 * the click (a person's, once a day per link); a hidden link, or one on a page visitors cannot see, is not found.
 * `/icons/<icon>.svg`: the icons of link buttons (see `iconFor`).
 */
export function registerLinkRoutes(
  app: FastifyInstance,
  { links, stats }: { links: LinkService; stats: PageStatsService },
): void {
  app.get<{ Params: { id: string } }>('/l/:id', async (request, reply) => {
    const link = isLowerCaseUuid(request.params.id) ? await links.followable(request.params.id) : null;
    if (!link) {
      reply.callNotFound();
      return reply;
    }
    const visitor = countableVisitor(request);
    if (visitor) {
      // A count that cannot be written must not keep the visitor from the link.
      await stats.countClick(link.id, link.uid, visitor).catch((error: unknown) => {
        request.log.warn({ err: error }, 'a link click could not be counted');
      });
    }
    // Where a link goes may change; an old redirect must not stay in a cache.
    return reply.header('Cache-Control', 'no-store').redirect(link.url, 302);
  });

  const icons = loadIcons();
  app.get<{ Params: { file: string } }>('/icons/:file', async (request, reply) =>
    sendSharedImage(reply, icons.get(request.params.file), 'image/svg+xml', 'public, max-age=86400'),
  );
}
