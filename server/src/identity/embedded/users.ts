import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { In, Not, QueryFailedError } from 'typeorm';
import { isUniqueViolation } from '../../db/errors.js';
import { keyLookup } from '../../db/key-lookup.js';
import { AuthIdentityRecord, AuthOneTimeTokenRecord, AuthSessionRecord, AuthUserRecord } from './entities.js';
import type { OneTimeTokenType } from './entities.js';
import { DUPLICATE_EMAIL, badRequest, unprocessable, validationFailed } from './errors.js';
import type { ApiError } from './errors.js';
import { AuthFactorRecord, factorJson } from './factor-entities.js';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** The HTML living standard's definition of a valid email address. */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export const isNilUuid = (value: string): boolean => value === NIL_UUID;

/** Validates an address as Supabase Auth does and returns it lower-cased. */
export function validateEmail(email: string): string {
  if (email === '') throw validationFailed('An email address is required');
  if (email.length > 255) throw validationFailed('An email address is too long');
  if (!EMAIL.test(email)) throw validationFailed('Unable to validate email address: invalid format');
  return email.toLowerCase();
}

/** Phone accounts are outside this service; their requests get Supabase Auth's "provider disabled" answer. */
export const phoneDisabled = (action: 'signups' | 'logins'): ApiError =>
  badRequest('phone_provider_disabled', `Phone ${action} are disabled`);

/** Shallow merge where `null` deletes a key, as Supabase Auth merges metadata. */
export function mergeMetadata(
  target: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(merged, key);
    else merged[key] = value;
  }
  return merged;
}

export function isBanned(user: AuthUserRecord, now = new Date()): boolean {
  return user.bannedUntil !== null && user.bannedUntil > now;
}

export async function findUserByEmail(manager: EntityManager, email: string): Promise<AuthUserRecord | null> {
  const [user] = await keyLookup(manager.dataSource, AuthUserRecord, 'email')([email.toLowerCase()], manager);
  return user ?? null;
}

/** A user by id, read in `manager`'s transaction when it has one; every sign-in reads its user. */
export async function findUserById(manager: EntityManager, id: string): Promise<AuthUserRecord | null> {
  const [user] = await keyLookup(manager.dataSource, AuthUserRecord, 'id')([id], manager);
  return user ?? null;
}

const byCreation = (a: { createdAt: Date }, b: { createdAt: Date }): number =>
  a.createdAt.getTime() - b.createdAt.getTime();

/**
 * Reads a user row inside a transaction in order to change it. A row read before the transaction
 * (or before a slow hash) is stale: writing it back would undo what other requests wrote meanwhile.
 * PostgreSQL locks the row until the transaction ends; SQLite needs no lock, as its transactions
 * already run one at a time (db/sqlite-serial.ts) and it has no row locks.
 */
export function lockUser(manager: EntityManager, id: string): Promise<AuthUserRecord | null> {
  const rowLocks = manager.dataSource.options.type === 'postgres';
  return manager.findOne(AuthUserRecord, {
    where: { id },
    ...(rowLocks && { lock: { mode: 'pessimistic_write' as const } }),
  });
}

/** True when a write failed on the unique address of `auth_users` (PostgreSQL names the index, SQLite the column). */
export function isEmailTaken(error: unknown): boolean {
  if (!isUniqueViolation(error) || !(error instanceof QueryFailedError)) return false;
  const driverError: unknown = error.driverError;
  const constraint =
    typeof driverError === 'object' && driverError !== null && 'constraint' in driverError
      ? driverError.constraint
      : undefined;
  return constraint === 'auth_users_email_key' || error.message.includes('auth_users.email');
}

/**
 * Saves a user row. Another account may have taken its address since the caller checked (two
 * requests for one address at once): that is Supabase Auth's `422 email_exists`, not a failure.
 */
export async function saveUser(manager: EntityManager, user: AuthUserRecord): Promise<void> {
  try {
    await manager.save(AuthUserRecord, user);
  } catch (error) {
    if (isEmailTaken(error)) throw unprocessable('email_exists', DUPLICATE_EMAIL);
    throw error;
  }
}

/** A new user row; the caller saves it. */
export function newUser(input: {
  id?: string;
  email: string;
  aud: string;
  role: string;
  encryptedPassword: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
}): AuthUserRecord {
  const now = new Date();
  const user = new AuthUserRecord();
  user.id = input.id ?? randomUUID();
  user.aud = input.aud;
  user.role = input.role;
  user.email = input.email;
  user.encryptedPassword = input.encryptedPassword;
  user.emailConfirmedAt = null;
  user.invitedAt = null;
  user.confirmationSentAt = null;
  user.recoverySentAt = null;
  user.emailChange = null;
  user.emailChangeSentAt = null;
  user.emailChangeConfirmStatus = 0;
  user.lastSignInAt = null;
  user.appMetadata = input.appMetadata;
  user.userMetadata = input.userMetadata;
  user.bannedUntil = null;
  user.deletedAt = null;
  user.isAnonymous = false;
  user.createdAt = now;
  user.updatedAt = now;
  return user;
}

/** Creates the `email` identity of a user; sign-up data keys join the identity data. */
export async function createEmailIdentity(
  manager: EntityManager,
  user: AuthUserRecord,
  data: Record<string, unknown> = {},
): Promise<AuthIdentityRecord> {
  const now = new Date();
  const identity = manager.create(AuthIdentityRecord, {
    id: randomUUID(),
    providerId: user.id,
    userId: user.id,
    provider: 'email',
    identityData: {
      ...data,
      sub: user.id,
      email: user.email ?? '',
      email_verified: false,
      phone_verified: false,
    },
    email: user.email,
    lastSignInAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await manager.save(AuthIdentityRecord, identity);
  return identity;
}

/** Merges values into the `identity_data` of the user's email identity. */
export async function updateEmailIdentity(
  manager: EntityManager,
  user: AuthUserRecord,
  data: Record<string, unknown>,
): Promise<void> {
  const identity = await manager.findOneBy(AuthIdentityRecord, { userId: user.id, provider: 'email' });
  if (!identity) {
    if (user.email) await createEmailIdentity(manager, user, data);
    return;
  }
  identity.identityData = { ...identity.identityData, ...data };
  identity.email = user.email;
  identity.updatedAt = new Date();
  await manager.save(identity);
}

/** Marks the email confirmed, as Supabase Auth's `Confirm()` does (also `user_metadata.email_verified`). */
export async function confirmEmail(manager: EntityManager, user: AuthUserRecord): Promise<void> {
  const now = new Date();
  user.emailConfirmedAt = now;
  user.userMetadata = mergeMetadata(user.userMetadata, { email_verified: true });
  user.updatedAt = now;
  await manager.save(user);
  await manager.delete(AuthOneTimeTokenRecord, { userId: user.id, tokenType: 'confirmation_token' });
  await updateEmailIdentity(manager, user, { email_verified: true });
}

/**
 * Forgets every pending emailed link of the user (after a password change, as Supabase Auth does),
 * except, with `keepEmailChange`, a pending email change: its links then still work.
 */
export async function clearPendingTokens(
  manager: EntityManager,
  user: AuthUserRecord,
  options: { keepEmailChange?: boolean } = {},
): Promise<void> {
  user.confirmationSentAt = null;
  user.recoverySentAt = null;
  if (options.keepEmailChange) {
    const kept: OneTimeTokenType[] = ['email_change_token_current', 'email_change_token_new'];
    await manager.delete(AuthOneTimeTokenRecord, { userId: user.id, tokenType: Not(In(kept)) });
    return;
  }
  user.emailChange = null;
  user.emailChangeSentAt = null;
  user.emailChangeConfirmStatus = 0;
  await manager.delete(AuthOneTimeTokenRecord, { userId: user.id });
}

/** Ends sessions of a user: all, all but one, or one. Their refresh tokens go with them. */
export async function logoutSessions(
  manager: EntityManager,
  userId: string,
  scope: { all: true } | { except: string } | { only: string },
): Promise<void> {
  const query = manager.createQueryBuilder().delete().from(AuthSessionRecord).where('user_id = :userId', { userId });
  if ('except' in scope) query.andWhere('id <> :id', { id: scope.except });
  if ('only' in scope) query.andWhere('id = :id', { id: scope.only });
  await query.execute();
}

/**
 * Takes the password (and any session) from an account nobody has confirmed yet, before an emailed
 * link or invitation is to confirm it. Whoever made it may not own the address: the owner, who
 * asked for the link, must not inherit a password someone else chose.
 */
export async function forgetUnprovenPassword(manager: EntityManager, user: AuthUserRecord): Promise<void> {
  if (user.emailConfirmedAt || user.encryptedPassword === null) return;
  await manager.update(AuthUserRecord, { id: user.id }, { encryptedPassword: null, updatedAt: new Date() });
  await logoutSessions(manager, user.id, { all: true });
  user.encryptedPassword = null;
}

const iso = (value: Date | null): string | undefined => value?.toISOString();

function identityJson(identity: AuthIdentityRecord): Record<string, unknown> {
  return {
    identity_id: identity.id,
    id: identity.providerId,
    user_id: identity.userId,
    identity_data: identity.identityData,
    provider: identity.provider,
    last_sign_in_at: iso(identity.lastSignInAt),
    created_at: iso(identity.createdAt),
    updated_at: iso(identity.updatedAt),
    email: identity.email ?? undefined,
  };
}

/** The User object of Supabase Auth's API: `email` and `phone` always strings, unset timestamps omitted. */
export function userJson(
  user: AuthUserRecord,
  identities: AuthIdentityRecord[],
  factors: AuthFactorRecord[] = [],
): Record<string, unknown> {
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? '',
    email_confirmed_at: iso(user.emailConfirmedAt),
    invited_at: iso(user.invitedAt),
    phone: '',
    confirmation_sent_at: iso(user.confirmationSentAt),
    confirmed_at: iso(user.emailConfirmedAt),
    recovery_sent_at: iso(user.recoverySentAt),
    new_email: user.emailChange ?? undefined,
    email_change_sent_at: iso(user.emailChangeSentAt),
    last_sign_in_at: iso(user.lastSignInAt),
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    identities: identities.map(identityJson),
    factors: factors.length === 0 ? undefined : factors.map(factorJson),
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
    banned_until: iso(user.bannedUntil),
    deleted_at: iso(user.deletedAt),
    is_anonymous: user.isAnonymous,
  };
}

/** The User object of one user, with its identities and factors loaded. */
export async function loadUserJson(manager: EntityManager, user: AuthUserRecord): Promise<Record<string, unknown>> {
  const identities = await keyLookup(manager.dataSource, AuthIdentityRecord, 'userId')([user.id], manager);
  const factors = await keyLookup(manager.dataSource, AuthFactorRecord, 'userId')([user.id], manager);
  return userJson(user, identities.sort(byCreation), factors.sort(byCreation));
}

/** User objects of many users, loading their identities in one query. */
export async function loadUsersJson(
  manager: EntityManager,
  users: AuthUserRecord[],
): Promise<Record<string, unknown>[]> {
  const where = { userId: In(users.map((user) => user.id)) };
  const identities =
    users.length === 0 ? [] : await manager.find(AuthIdentityRecord, { where, order: { createdAt: 'ASC' } });
  const factors =
    users.length === 0 ? [] : await manager.find(AuthFactorRecord, { where, order: { createdAt: 'ASC' } });
  return users.map((user) =>
    userJson(
      user,
      identities.filter((identity) => identity.userId === user.id),
      factors.filter((factor) => factor.userId === user.id),
    ),
  );
}

/** The one-time token types that `/verify` accepts for a verification type. */
export function tokenTypesFor(type: string): OneTimeTokenType[] | undefined {
  switch (type) {
    case 'signup':
    case 'invite':
      return ['confirmation_token'];
    case 'recovery':
    case 'magiclink':
      return ['recovery_token'];
    case 'email_change':
      return ['email_change_token_current', 'email_change_token_new'];
    case 'email':
      return ['confirmation_token', 'recovery_token'];
    default:
      return undefined;
  }
}
