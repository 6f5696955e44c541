import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ShareImage, ShareService } from './share.service.js';

/** Sends an image with its validator; a client that has it already gets 304. */
function sendImage(
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
  if (request.headers['if-none-match'] === image.etag) return reply.code(304).send();
  return reply.type(type).send(image.body);
}

/**
 * `/share/<username>/card.png`: the page's Open Graph / Twitter card (1200×630), revalidated by
 * ETag, which changes with the member's name, theme and the day's verse.
 * `/share/<username>/qr.svg` and `qr.png`: the QR code of the page's address.
 * `/share/verse-of-the-day/<YYYY-MM-DD>.png`: the card of that day's verse (a day's verse never changes).
 * A page visitors cannot see has none of these (404).
 */
export function registerShareRoutes(app: FastifyInstance, shares: ShareService): void {
  app.get<{ Params: { username: string } }>('/share/:username/card.png', async (request, reply) =>
    sendImage(request, reply, await shares.pageCard(request.params.username), 'image/png', 'public, no-cache'),
  );
  app.get<{ Params: { username: string } }>('/share/:username/qr.svg', async (request, reply) =>
    sendImage(request, reply, await shares.pageQr(request.params.username, 'svg'), 'image/svg+xml', 'public, no-cache'),
  );
  app.get<{ Params: { username: string } }>('/share/:username/qr.png', async (request, reply) =>
    sendImage(request, reply, await shares.pageQr(request.params.username, 'png'), 'image/png', 'public, no-cache'),
  );
  app.get<{ Params: { file: string } }>('/share/verse-of-the-day/:file', async (request, reply) => {
    const date = /^(\d{4}-\d{2}-\d{2})\.png$/.exec(request.params.file)?.[1];
    const image = date ? await shares.verseCard(date) : null;
    return sendImage(request, reply, image, 'image/png', 'public, max-age=86400');
  });
}
