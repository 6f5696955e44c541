import { createHash, hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An anonymous answer to a GET: any cache may keep it, but must ask again before each use (a 304
 * when the ETag still holds). Not a longer max-age: a member's edit, a hidden page or the turn of
 * the day must show at once, and the server's own answer cache already makes the repeat cheap.
 */
export const PUBLIC_ANSWER = 'public, max-age=0, must-revalidate';
/** A signed-in caller's answer: no cache anywhere may keep it. */
export const PRIVATE_ANSWER = 'private, no-store';
/** Errors, POSTs and everything else that is not a reusable public answer. */
export const UNCACHED_ANSWER = 'no-store';

/** What an anonymous GET's answer depends on besides its address. */
const ANSWER_VARY = ['Accept', 'Authorization', 'Origin'];

/**
 * A strong ETag for a body sent as `contentType`: a different representation gets a different tag.
 * A string is hashed in one call (`crypto.hash`), a third cheaper than a Hash object for an answer.
 */
export function strongEtag(body: string | Buffer, contentType = ''): string {
  const digest =
    typeof body === 'string'
      ? hash('sha256', `${contentType}\n${body}`, 'base64url')
      : createHash('sha256').update(`${contentType}\n`).update(body).digest('base64url');
  return `"${digest.slice(0, 32)}"`;
}

/** Whether `If-None-Match` names `etag` (or is `*`); weak tags compare by their opaque part. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

/** Adds `names` to the answer's `Vary`, keeping what is there (CORS adds `Origin`). */
export function addVary(reply: FastifyReply, names: readonly string[]): void {
  const current = reply.getHeader('vary');
  const present = String(current ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const known = new Set(present.map((name) => name.toLowerCase()));
  const added = names.filter((name) => !known.has(name.toLowerCase()));
  if (added.length > 0) void reply.header('vary', [...present, ...added].join(', '));
}

/**
 * The `onSend` hook of `/graphql`: an anonymous GET answered with data and no errors gets
 * `Cache-Control: public, max-age=0, must-revalidate` and a strong ETag (a hash of its bytes, so it
 * changes exactly when the answer does, whether the lean executor, its answer cache or Apollo made
 * it; a kept answer's tag was made once, when it was kept), and `If-None-Match` with that tag gets 304 without the body. A caller with a token gets
 * `private, no-store`; anything else `no-store`.
 */
export function graphqlAnswerHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (request.method === 'OPTIONS') {
    done(null, payload);
    return;
  }
  if (request.headers.authorization !== undefined) {
    void reply.header('cache-control', PRIVATE_ANSWER);
    done(null, payload);
    return;
  }
  // Apollo and the lean executor both write an answer without errors as `{"data":…`.
  const reusable =
    request.method === 'GET' &&
    reply.statusCode === 200 &&
    typeof payload === 'string' &&
    payload.startsWith('{"data"');
  // An answer served from the answer cache carries the tag made when it was kept.
  const kept = reply.getHeader('etag');
  if (!reusable) {
    if (kept !== undefined) reply.removeHeader('etag');
    void reply.header('cache-control', UNCACHED_ANSWER);
    done(null, payload);
    return;
  }
  const etag = typeof kept === 'string' ? kept : strongEtag(payload, String(reply.getHeader('content-type') ?? ''));
  void reply.header('cache-control', PUBLIC_ANSWER).header('etag', etag);
  addVary(reply, ANSWER_VARY);
  if (matchesEtag(request.headers['if-none-match'], etag)) {
    void reply.code(304);
    done(null, null);
    return;
  }
  done(null, payload);
}

/**
 * The end of a GET for an image other sites show (third-party clients show icons and photos beside
 * what they read from the API): the image, loadable cross-origin, or the app's not-found answer.
 */
export function sendSharedImage(
  reply: FastifyReply,
  image: string | Buffer | null | undefined,
  type: string,
  cacheControl: string,
): FastifyReply {
  if (image === null || image === undefined) {
    reply.callNotFound();
    return reply;
  }
  return reply
    .header('Cache-Control', cacheControl)
    .header('Cross-Origin-Resource-Policy', 'cross-origin')
    .type(type)
    .send(image);
}
