import { hash, randomInt, randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { LessThan } from 'typeorm';
import { rowInsert, rowUpdateReturning } from '../../db/row-writes.js';
import { sqliteReadNow } from '../../db/sqlite-serial.js';
import { MailOutboxRecord } from '../../mail/outbox.entity.js';
import type { IdentityContext } from './context.js';
import { AuthOneTimeTokenRecord, AuthRefreshTokenRecord, AuthSessionRecord, AuthUserRecord } from './entities.js';
import type { AmrEntry } from './entities.js';
import { AuthChallengeRecord, AuthFactorRecord, AuthPasskeyChallengeRecord } from './factor-entities.js';
import { AuthFlowStateRecord } from './flow-state.entity.js';
import { ApiError, INVALID_CREDENTIALS, OAuthError, badRequest, validationFailed } from './errors.js';
import { isBanned, loadUserJson } from './users.js';
import type { SessionLiveness } from '../token-verifier.js';

const REFRESH_TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Supabase Auth's (legacy, default) refresh tokens: 12 lowercase alphanumerics. */
const REFRESH_TOKEN_LENGTH = 12;
const REFRESH_TOKEN_FORMAT = /^[a-z0-9]{12}$/;

/** In one call (`crypto.hash`): a Hash object per refresh token cost a sign-in ~1% of its main thread. */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');

function newRefreshToken(): string {
  let token = '';
  for (let index = 0; index < REFRESH_TOKEN_LENGTH; index++) {
    token += REFRESH_TOKEN_ALPHABET.charAt(randomInt(REFRESH_TOKEN_ALPHABET.length));
  }
  return token;
}

/** Request details recorded on a session. */
export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/** The JSON of a signed-in answer (Supabase Auth's AccessTokenResponse). */
export type AccessTokenResponse = Record<string, unknown> & { access_token: string; refresh_token: string };

/** Signs an access token for a user's session with the claims Supabase Auth puts in it. */
async function accessToken(
  context: IdentityContext,
  user: AuthUserRecord,
  session: AuthSessionRecord,
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const expiresAt = iat + context.settings.jwtExp;
  const token = await context.keys.sign({
    iss: context.settings.jwtIssuer,
    sub: user.id,
    aud: user.aud,
    exp: expiresAt,
    iat,
    email: user.email ?? '',
    phone: '',
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    role: user.role,
    aal: session.aal,
    amr: [...session.amr].sort((a, b) => b.timestamp - a.timestamp),
    session_id: session.id,
    is_anonymous: user.isAnonymous,
  });
  return { token, expiresAt };
}

async function insertRefreshToken(
  manager: EntityManager,
  session: AuthSessionRecord,
  parentHash: string | null,
): Promise<string> {
  const token = newRefreshToken();
  const now = new Date();
  await rowInsert(manager.dataSource, AuthRefreshTokenRecord)(
    manager,
    manager.create(AuthRefreshTokenRecord, {
      id: randomUUID(),
      tokenHash: sha256(token),
      parentHash,
      sessionId: session.id,
      userId: session.userId,
      revoked: false,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return token;
}

async function tokenResponse(
  context: IdentityContext,
  manager: EntityManager,
  user: AuthUserRecord,
  session: AuthSessionRecord,
  refreshToken: string,
): Promise<AccessTokenResponse> {
  const { token, expiresAt } = await accessToken(context, user, session);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: expiresAt - Math.floor(Date.now() / 1000),
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await loadUserJson(manager, user),
  };
}

/** What a password sign-in rests on: the stored hash the password was checked against. */
export interface PasswordCheck {
  verifiedHash: string;
  /** A stronger hash of the same password, to store in place of an imported (bcrypt) one. */
  rehash: string | undefined;
}

/**
 * Starts a session for a user signed in with `method` (`password` or `otp`), records the sign-in
 * and returns the session JSON. Runs inside the caller's transaction. With `password`, the sign-in
 * fails as `invalid_credentials` when the password changed after it was checked.
 */
export async function issueSession(
  context: IdentityContext,
  manager: EntityManager,
  userId: string,
  method: string,
  client: ClientInfo,
  password?: PasswordCheck,
): Promise<AccessTokenResponse> {
  const now = new Date();
  // Only the sign-in's own columns: a copy of the row read before the (slow) password check is
  // stale, and writing it back would undo what others wrote meanwhile (app_metadata, a new password).
  // On PostgreSQL this also locks the row, so a password change either waits for this session (and
  // ends it) or lands first and fails this sign-in.
  const rehash = password?.rehash;
  // The user as it is after the update (RETURNING): one statement where a read after it made two.
  const signedIn = rowUpdateReturning(manager.dataSource, AuthUserRecord, {
    set: rehash === undefined ? ['lastSignInAt', 'updatedAt'] : ['lastSignInAt', 'updatedAt', 'encryptedPassword'],
    where: password ? ['id', 'encryptedPassword'] : ['id'],
  });
  const [user] = await signedIn(
    manager,
    { lastSignInAt: now, updatedAt: now, ...(rehash !== undefined && { encryptedPassword: rehash }) },
    { id: userId, ...(password && { encryptedPassword: password.verifiedHash }) },
  );
  if (!user) {
    throw password
      ? badRequest('invalid_credentials', INVALID_CREDENTIALS)
      : new ApiError(404, 'user_not_found', 'User not found');
  }
  const amr: AmrEntry[] = [{ method, timestamp: Math.floor(now.getTime() / 1000) }];
  const columns = {
    id: randomUUID(),
    userId,
    aal: 'aal1' as const,
    amr,
    factorId: null,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
    ip: client.ip,
    refreshedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  // A new id: an insert, without the read `save` makes first to choose between insert and update.
  const session = manager.create(AuthSessionRecord, columns);
  await rowInsert(manager.dataSource, AuthSessionRecord)(manager, session);
  const refreshToken = await insertRefreshToken(manager, session, null);
  return tokenResponse(context, manager, user, session, refreshToken);
}

/**
 * Answers a new token pair for a session whose assurance changed (a second factor verified), as
 * Supabase Auth's MFA verification does. Its earlier refresh tokens all stop working, so a refresh
 * token issued before the change cannot be used again, even within the reuse interval.
 */
export async function reissueSession(
  context: IdentityContext,
  manager: EntityManager,
  user: AuthUserRecord,
  session: AuthSessionRecord,
): Promise<AccessTokenResponse> {
  await manager.delete(AuthRefreshTokenRecord, { sessionId: session.id });
  const refreshToken = await insertRefreshToken(manager, session, null);
  return tokenResponse(context, manager, user, session, refreshToken);
}

type RefreshOutcome = { response: AccessTokenResponse } | { error: Error };

/**
 * The refresh_token grant. A live token is swapped for a child; a revoked one is swapped again
 * only within the reuse interval. Beyond it, with rotation on, the whole session ends (its access
 * tokens stop working too) and the reply is `refresh_token_already_used`.
 */
export async function refreshSession(
  context: IdentityContext,
  refreshToken: string,
  client: ClientInfo,
): Promise<AccessTokenResponse> {
  if (refreshToken === '') throw new OAuthError('invalid_request', 'refresh_token required');
  if (!REFRESH_TOKEN_FORMAT.test(refreshToken)) throw validationFailed('Refresh token is not valid');
  const tokenHash = sha256(refreshToken);

  const outcome = await context.dataSource.transaction(async (manager): Promise<RefreshOutcome> => {
    const token = await manager.findOneBy(AuthRefreshTokenRecord, { tokenHash });
    if (!token)
      return { error: badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') };
    const session = await manager.findOneBy(AuthSessionRecord, { id: token.sessionId });
    const user = session ? await manager.findOneBy(AuthUserRecord, { id: session.userId }) : null;
    if (!session || !user) {
      return { error: badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found') };
    }
    if (isBanned(user)) return { error: badRequest('user_banned', 'Invalid Refresh Token: User Banned') };

    const now = new Date();
    let revoked = token.revoked;
    if (!revoked) {
      // Only one concurrent request can flip the flag; the others take the reuse path below.
      const result = await manager.update(
        AuthRefreshTokenRecord,
        { id: token.id, revoked: false },
        { revoked: true, updatedAt: now },
      );
      revoked = result.affected === 0;
      if (revoked) token.updatedAt = now;
    }
    if (revoked) {
      const reuseUntil = token.updatedAt.getTime() + context.settings.refreshTokenReuseInterval * 1000;
      if (now.getTime() > reuseUntil) {
        if (context.settings.refreshTokenRotation) {
          await manager.delete(AuthSessionRecord, { id: session.id });
        }
        return { error: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used') };
      }
    }

    const activity = {
      refreshedAt: now,
      updatedAt: now,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
    };
    // An update, not a save: a save of a session ended meanwhile (logout) would insert it again.
    const touched = await manager.update(AuthSessionRecord, { id: session.id }, activity);
    if (touched.affected === 0) {
      return { error: badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found') };
    }
    Object.assign(session, activity);
    const child = await insertRefreshToken(manager, session, token.tokenHash);
    return { response: await tokenResponse(context, manager, user, session, child) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.response;
}

/** How long a revoked refresh token is kept to detect its replay (Supabase Auth's clean-up keeps a day). */
const REVOKED_REFRESH_TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long a two-factor challenge is kept after it was made. */
const CHALLENGE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** How many rows one `pruneExpired` pass removed, by table. */
export interface PruneReport {
  refreshTokens: number;
  oneTimeTokens: number;
  flowStates: number;
  outbox: number;
  mfaChallenges: number;
}

/**
 * Deletes what can no longer be used: refresh tokens revoked over a day ago (a replay then answers
 * `refresh_token_not_found` rather than ending the session, as in Supabase Auth), emailed tokens,
 * PKCE flows and development-outbox messages older than `otpExp`, and two-factor and passkey
 * challenges over a day old. Ended sessions are deleted at once already.
 */
export async function pruneExpired(
  dataSource: DataSource,
  settings: { otpExp: number },
  now = new Date(),
): Promise<PruneReport> {
  const revokedBefore = new Date(now.getTime() - REVOKED_REFRESH_TOKEN_RETENTION_MS);
  const sentBefore = new Date(now.getTime() - settings.otpExp * 1000);
  const { manager } = dataSource;
  const refreshTokens = await manager.delete(AuthRefreshTokenRecord, {
    revoked: true,
    updatedAt: LessThan(revokedBefore),
  });
  const oneTimeTokens = await manager.delete(AuthOneTimeTokenRecord, { createdAt: LessThan(sentBefore) });
  const flowStates = await manager.delete(AuthFlowStateRecord, { createdAt: LessThan(sentBefore) });
  const outbox = await manager.delete(MailOutboxRecord, { createdAt: LessThan(sentBefore) });
  // A challenge lives minutes; a day keeps the record of recent ones for the rate limit and support.
  const mfaChallenges = await manager.delete(AuthChallengeRecord, {
    createdAt: LessThan(new Date(now.getTime() - CHALLENGE_RETENTION_MS)),
  });
  // Passkey sign-in challenges (asked for without an account) go with them, counted among them.
  const passkeyChallenges = await manager.delete(AuthPasskeyChallengeRecord, {
    createdAt: LessThan(new Date(now.getTime() - CHALLENGE_RETENTION_MS)),
  });
  return {
    refreshTokens: refreshTokens.affected ?? 0,
    oneTimeTokens: oneTimeTokens.affected ?? 0,
    flowStates: flowStates.affected ?? 0,
    outbox: outbox.affected ?? 0,
    mfaChallenges: (mfaChallenges.affected ?? 0) + (passkeyChallenges.affected ?? 0),
  };
}

/**
 * The embedded service's answer to "is this session still alive, and has its user a verified
 * factor", in one SELECT written once: logout, password change and account deletion end sessions
 * here, so tokens stop working at once, and a factor verified or removed counts at the next request.
 * The factor is an indexed EXISTS beside the session's primary-key lookup, so no cache is needed.
 */
export function sessionLiveness(dataSource: DataSource): SessionLiveness {
  const { driver } = dataSource;
  const columnOf = (entity: typeof AuthSessionRecord | typeof AuthFactorRecord, property: string): string => {
    const found = dataSource.getMetadata(entity).findColumnWithPropertyName(property);
    if (!found) throw new Error(`${entity.name} has no column ${property}`);
    return driver.escape(found.databaseName);
  };
  const table = (entity: typeof AuthSessionRecord | typeof AuthFactorRecord): string =>
    driver.escape(dataSource.getMetadata(entity).tableName);
  const [first, second, third] = dataSource.options.type === 'postgres' ? ['$1', '$2', '$3'] : ['?', '?', '?'];
  const factor =
    `SELECT 1 FROM ${table(AuthFactorRecord)} WHERE ${columnOf(AuthFactorRecord, 'userId')} = ${first} ` +
    `AND ${columnOf(AuthFactorRecord, 'status')} = 'verified'`;
  const sql =
    `SELECT EXISTS (${factor}) AS factor FROM ${table(AuthSessionRecord)} ` +
    `WHERE ${columnOf(AuthSessionRecord, 'id')} = ${second} AND ${columnOf(AuthSessionRecord, 'userId')} = ${third} LIMIT 1`;
  const readNow = sqliteReadNow(dataSource);
  return async (sessionId, userId) => {
    const parameters = [userId, sessionId, userId];
    const rows = (readNow?.(sql, parameters) ?? (await dataSource.query<unknown[]>(sql, parameters))) as {
      factor: unknown;
    }[];
    const row = rows[0];
    return row === undefined ? null : { verifiedFactor: row.factor === true || row.factor === 1 };
  };
}
