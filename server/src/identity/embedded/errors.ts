import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../../http/rate-limit-headers.js';
import type { RateLimitNote } from '../../http/rate-limit-headers.js';

/** The API version auth-js sends; errors echo it and use the `{code, message}` shape. */
export const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = '2024-01-01';
const API_VERSION_2024_MS = Date.parse('2024-01-01T00:00:00Z');

/** An expected failure of the identity API, answered as Supabase Auth answers it. */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Reasons of a `weak_password` failure. */
    readonly reasons?: string[],
    cause?: unknown,
    /** For a 429: when to try again, sent as `Retry-After` and `RateLimit-*` headers. */
    readonly rateLimit?: RateLimitNote,
  ) {
    super(message, { cause });
  }
}

/** An OAuth-style failure (`{error, error_description}`), always sent as 400. */
export class OAuthError extends Error {
  override name = 'OAuthError';

  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export const badRequest = (code: string, message: string): ApiError => new ApiError(400, code, message);
export const validationFailed = (message: string): ApiError => new ApiError(400, 'validation_failed', message);
export const forbidden = (code: string, message: string): ApiError => new ApiError(403, code, message);
export const unprocessable = (code: string, message: string): ApiError => new ApiError(422, code, message);
export const tooManyRequests = (code: string, message: string, note: RateLimitNote): ApiError =>
  new ApiError(429, code, message, undefined, undefined, note);

export const INVALID_CREDENTIALS = 'Invalid login credentials';
export const DUPLICATE_EMAIL = 'A user with this email address has already been registered';

/** The request's API version, when it names one on or after 2024-01-01 (auth-js always does). */
function requestApiVersion(request: FastifyRequest): string | undefined {
  const value = request.headers[API_VERSION_HEADER];
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(time) || time < API_VERSION_2024_MS ? undefined : API_VERSION_2024;
}

const unexpectedFailure = (): ApiError =>
  new ApiError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information');

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('FST_');
}

function fromFastifyError(error: FastifyError): ApiError {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new ApiError(413, 'request_entity_too_large', 'Request body too large');
  }
  if (error.statusCode !== undefined && error.statusCode < 500) {
    return new ApiError(error.statusCode, error.statusCode === 400 ? 'bad_json' : 'unknown', error.message);
  }
  return unexpectedFailure();
}

/**
 * Sends an error the way Supabase Auth does: with a dated API version, `{code, message}` and the
 * version echoed in the response header; otherwise the legacy `{code: status, error_code, msg}`.
 * Both carry `x-sb-error-code`.
 */
export async function sendIdentityError(error: unknown, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (error instanceof OAuthError) {
    await reply.code(400).send({ error: error.error, error_description: error.description });
    return;
  }
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (isFastifyError(error)) apiError = fromFastifyError(error);
  else {
    request.log.error({ err: error }, 'identity request failed');
    apiError = unexpectedFailure();
  }

  const version = requestApiVersion(request);
  void reply.code(apiError.status).header('x-sb-error-code', apiError.code);
  for (const [name, value] of apiError.rateLimit ? rateLimitHeaders(apiError.rateLimit) : [])
    void reply.header(name, value);
  const weakPassword = apiError.reasons ? { weak_password: { reasons: apiError.reasons } } : {};
  if (version) {
    await reply
      .header('X-Supabase-Api-Version', version)
      .send({ code: apiError.code, message: apiError.message, ...weakPassword });
    return;
  }
  const errorId = apiError.status >= 500 ? { error_id: request.id } : {};
  await reply.send({
    code: apiError.status,
    error_code: apiError.code,
    msg: apiError.message,
    ...errorId,
    ...weakPassword,
  });
}
