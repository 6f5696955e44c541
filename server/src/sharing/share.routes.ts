import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../graphql/errors.js';
import { Translation } from '../verses/translation.js';
import { CapacityFull } from '../work/capacity.js';
import type { ShareImage, ShareService } from './share.service.js';
import { RenderLimited } from './share.service.js';

/** A dated verse card never changes: browsers and proxies may keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** True when the client already holds `etag` (If-None-Match: a list, weak or strong, or `*`). */
function holds(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/** A coded JSON refusal with `Retry-After`, in the shape the photo routes use. */
function refuse(reply: FastifyReply, status: number, code: ErrorCode, message: string, retryAfterSeconds: number) {
  return reply
    .code(status)
    .header('Retry-After', String(retryAfterSeconds))
    .header('Cache-Control', 'no-store')
    .send({ code, message });
}

/**
 * Sends an image with its validator; a client that has it already gets 304 without anything being
 * drawn. An address over its share of new drawings gets 429, a server full of heavy work 503, each
 * with `Retry-After`.
 */
async function sendImage(
  request: FastifyRequest,
  reply: FastifyReply,
  image: ShareImage | null,
  type: string,
  cacheControl: string,
) {
  if (!image) {
    reply.callNotFound();
    return reply;
  }
  void reply
    .header('ETag', image.etag)
    .header('Cache-Control', cacheControl)
    // Link previews on other sites load these.
    .header('Cross-Origin-Resource-Policy', 'cross-origin');
  if (holds(request, image.etag)) return reply.code(304).send();
  let body: Buffer;
  try {
    body = await image.body();
  } catch (error) {
    reply.removeHeader('ETag');
    if (error instanceof RenderLimited) {
      return refuse(reply, 429, ErrorCode.RATE_LIMITED, error.message, error.retryAfterSeconds);
    }
    if (error instanceof CapacityFull) {
      return refuse(reply, 503, ErrorCode.SERVICE_UNAVAILABLE, error.message, error.retryAfterSeconds);
    }
    throw error;
  }
  return reply.type(type).send(body);
}

/**
 * `/share/<username>/card.png`: the page's Open Graph / Twitter card (1200×630), revalidated by
 * ETag, which changes with the member's name, theme and the day's verse.
 * `/share/<username>/qr.svg` and `qr.png`: the QR code of the page's address (kept a day).
 * `/share/verse-of-the-day/<YYYY-MM-DD>.png`: the card of that day's verse, `?translation=WEB` in the
 * World English Bible (a day's verse never changes: kept a year). A page visitors cannot see has none of these (404).
 */
export function registerShareRoutes(app: FastifyInstance, shares: ShareService): void {
  app.get<{ Params: { username: string } }>('/share/:username/card.png', async (request, reply) =>
    sendImage(
      request,
      reply,
      await shares.pageCard(request.params.username, request.ip),
      'image/png',
      'public, no-cache',
    ),
  );
  app.get<{ Params: { username: string } }>('/share/:username/qr.svg', async (request, reply) =>
    sendImage(
      request,
      reply,
      await shares.pageQr(request.params.username, 'svg', request.ip),
      'image/svg+xml',
      'public, max-age=86400',
    ),
  );
  app.get<{ Params: { username: string } }>('/share/:username/qr.png', async (request, reply) =>
    sendImage(
      request,
      reply,
      await shares.pageQr(request.params.username, 'png', request.ip),
      'image/png',
      'public, max-age=86400',
    ),
  );
  app.get<{ Params: { file: string }; Querystring: { translation?: unknown } }>(
    '/share/verse-of-the-day/:file',
    async (request, reply) => {
      const date = /^(\d{4}-\d{2}-\d{2})\.png$/.exec(request.params.file)?.[1];
      const translation = request.query.translation === Translation.WEB ? Translation.WEB : Translation.KJV;
      const image = date ? await shares.verseCard(date, request.ip, translation) : null;
      return sendImage(request, reply, image, 'image/png', IMMUTABLE);
    },
  );
}
