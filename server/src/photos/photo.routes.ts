import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { GraphQLError } from 'graphql';
import { mfaRequired } from '../graphql/auth.js';
import { sendSharedImage } from '../http/answer-headers.js';
import type { AuthUser } from '../graphql/context.js';
import { ErrorCode, isExpectedError } from '../graphql/errors.js';
import { isLowerCaseUuid } from '../rules/uuid.js';
import type { PhotoRejection } from './photo.pipeline.js';
import { MAX_PHOTO_BYTES, PhotoRejected } from './photo.pipeline.js';
import { CapacityFull } from '../work/capacity.js';
import type { PhotoService } from './photo.service.js';
import { UploadsLimited } from './photo.service.js';

const PHOTO_FILE = /^([A-Za-z0-9_-]{16})\.webp$/;

export interface PhotoRouteOptions {
  photos: PhotoService;
  /** The caller an Authorization header names (null without one); throws UNAUTHENTICATED for a bad token. */
  authenticate: (header: string | undefined) => Promise<AuthUser | null>;
  /** The address people use, before the photo's path. */
  publicUrl: string;
}

/** Why an upload was put off rather than refused for what it is (429 and 503, with `Retry-After`). */
type PhotoDeferral = 'too_many_uploads' | 'busy';

/** The coded JSON body of a refused upload, in the shape GraphQL errors carry their extensions. */
function refuse(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  reason?: PhotoRejection | PhotoDeferral,
) {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .send({ code, message, ...(reason ? { field: 'photo', reason } : {}) });
}

function refuseError(reply: FastifyReply, error: GraphQLError) {
  const code = error.extensions.code as ErrorCode;
  const status = code === ErrorCode.UNAUTHENTICATED ? 401 : code === ErrorCode.SERVICE_UNAVAILABLE ? 503 : 400;
  return refuse(reply, status, code, error.message);
}

/**
 * `PUT /api/photo`: the signed-in member's new photo, the image file itself as the request body
 * (any content type; the bytes decide), answered with `{ photoUrl }`. A raw body rather than a
 * GraphQL multipart upload: Apollo Server's CSRF prevention refuses multipart posts without a
 * preflight header, and a GraphQL document is limited to 1 MB. A member over the hourly limit
 * gets 429 (`RATE_LIMITED`, reason `too_many_uploads`), a server full of heavy work 503
 * (`SERVICE_UNAVAILABLE`, reason `busy`), both with `Retry-After`.
 * `GET /p/<uid>/<version>.webp`: a photo, cached for a year (a new photo has a new version).
 */
export function registerPhotoRoutes(
  app: FastifyInstance,
  { photos, authenticate, publicUrl }: PhotoRouteOptions,
): void {
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PHOTO_BYTES }, (_request, body, parsed) => {
      parsed(null, body);
    });
    scope.setErrorHandler(async (error: FastifyError, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return refuse(reply, 413, ErrorCode.BAD_USER_INPUT, 'A photo can be at most 5 MB.', 'too_large');
      }
      if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return refuse(reply, 400, ErrorCode.BAD_USER_INPUT, 'Send the image file as the request body.', 'empty');
      }
      // Everything else is the app's usual answer (logged, nothing internal shown).
      throw error;
    });
    scope.put('/api/photo', async (request, reply) => {
      let actor: AuthUser | null;
      try {
        actor = await authenticate(request.headers.authorization);
      } catch (error) {
        if (error instanceof GraphQLError && isExpectedError(error)) return refuseError(reply, error);
        throw error;
      }
      if (!actor) return refuse(reply, 401, ErrorCode.UNAUTHENTICATED, 'You need to sign in first.');
      // The assurance rule of every authorized GraphQL field (graphql/auth.ts) holds here too.
      if (actor.secondFactorPending) return refuse(reply, 403, ErrorCode.MFA_REQUIRED, mfaRequired().message);
      const upload = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      try {
        const path = await photos.set(actor, upload);
        return await reply.header('Cache-Control', 'no-store').send({ photoUrl: `${publicUrl}${path}` });
      } catch (error) {
        if (error instanceof UploadsLimited) {
          void reply.header('Retry-After', String(error.retryAfterSeconds));
          return refuse(reply, 429, ErrorCode.RATE_LIMITED, error.message, 'too_many_uploads');
        }
        if (error instanceof CapacityFull) {
          void reply.header('Retry-After', String(error.retryAfterSeconds));
          return refuse(reply, 503, ErrorCode.SERVICE_UNAVAILABLE, error.message, 'busy');
        }
        if (error instanceof PhotoRejected) {
          const status = error.reason === 'too_large' ? 413 : 400;
          return refuse(reply, status, ErrorCode.BAD_USER_INPUT, error.message, error.reason);
        }
        if (error instanceof GraphQLError && isExpectedError(error)) return refuseError(reply, error);
        throw error;
      }
    });
    done();
  });

  app.get<{ Params: { uid: string; file: string } }>('/p/:uid/:file', async (request, reply) => {
    const version = PHOTO_FILE.exec(request.params.file)?.[1];
    const image =
      version !== undefined && isLowerCaseUuid(request.params.uid)
        ? await photos.image(request.params.uid, version)
        : null;
    return sendSharedImage(reply, image, 'image/webp', 'public, max-age=31536000, immutable');
  });
}
