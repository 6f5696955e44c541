import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import { DEFAULT_ROLE } from '../context.js';
import { AuthUserRecord } from '../entities.js';
import { ApiError, DUPLICATE_EMAIL, unprocessable, validationFailed } from '../errors.js';
import { parseGoDuration } from '../durations.js';
import {
  checkPasswordLength,
  checkPasswordStrength,
  generatedPassword,
  hashPassword,
  isSupportedHash,
} from '../passwords.js';
import { isUuid } from '../../../rules/uuid.js';
import { adminRequestAud, queryValue, readBody } from '../request.js';
import type { RouteCall } from '../route.js';
import { metadata, text } from '../schemas.js';
import {
  clearPendingTokens,
  confirmEmail,
  createEmailIdentity,
  findUserByEmail,
  isNilUuid,
  loadUserJson,
  loadUsersJson,
  lockUser,
  logoutSessions,
  mergeMetadata,
  newUser,
  phoneDisabled,
  saveUser,
  updateEmailIdentity,
  validateEmail,
} from '../users.js';

const userBody = z.object({
  id: text,
  aud: text,
  role: text,
  email: text,
  phone: text,
  password: z.string().nullish(),
  password_hash: text,
  email_confirm: z.boolean().nullish(),
  phone_confirm: z.boolean().nullish(),
  user_metadata: metadata,
  app_metadata: metadata,
  ban_duration: text,
});
const deleteBody = z.object({ should_soft_delete: z.boolean().nullish() });

const DEFAULT_PER_PAGE = 50;

/** `ban_duration` as a date (`null` lifts a ban), or undefined when not given. */
function bannedUntil(value: string): Date | null | undefined {
  if (value === '') return undefined;
  if (value === 'none') return null;
  const ms = parseGoDuration(value);
  if (ms === undefined) throw validationFailed(`invalid format for ban duration: time: invalid duration "${value}"`);
  return ms === 0 ? null : new Date(Date.now() + ms);
}

function pageNumber(value: string, fallback: number): number {
  if (value === '') return fallback;
  if (!/^\d+$/.test(value)) throw validationFailed(`Bad Pagination Parameters: invalid number "${value}"`);
  return Number(value);
}

const userNotFound = (): ApiError => new ApiError(404, 'user_not_found', 'User not found');

/** The user named by `:id` in the path (404 when there is none). */
export async function loadUser(request: FastifyRequest, manager: EntityManager): Promise<AuthUserRecord> {
  const { id } = request.params as { id: string };
  if (!isUuid(id)) throw new ApiError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await manager.findOneBy(AuthUserRecord, { id });
  if (!user) throw userNotFound();
  return user;
}

/** `GET /admin/users` (contract §2.8): a page of users, newest first. */
export async function listUsers(
  request: FastifyRequest,
  reply: FastifyReply,
  { context }: RouteCall,
): Promise<unknown> {
  const { dataSource } = context;
  const page = Math.max(1, pageNumber(queryValue(request, 'page'), 1));
  const perPage = pageNumber(queryValue(request, 'per_page'), DEFAULT_PER_PAGE);
  if (perPage === 0) throw validationFailed('Bad Pagination Parameters: per_page must be positive');
  const aud = adminRequestAud(request, context);
  const filter = queryValue(request, 'filter').toLowerCase();
  const query = dataSource.manager
    .createQueryBuilder(AuthUserRecord, 'user')
    .where('user.aud = :aud', { aud })
    .orderBy('user.created_at', queryValue(request, 'sort').endsWith(' asc') ? 'ASC' : 'DESC')
    .addOrderBy('user.id', 'ASC');
  if (filter !== '') query.andWhere('user.email LIKE :filter', { filter: `%${filter.replace(/[%_]/g, '')}%` });
  const [users, total] = await query
    .skip((page - 1) * perPage)
    .take(perPage)
    .getManyAndCount();

  const lastPage = Math.ceil(total / perPage);
  const path = request.url.split('?')[0] ?? '';
  const prefix = path.slice(0, path.length - '/admin/users'.length);
  const link = (to: number): string => `<${prefix}/admin/users?page=${to}&per_page=${perPage}>`;
  const links = lastPage > page ? [`${link(page + 1)}; rel="next"`] : [];
  links.push(`${link(lastPage)}; rel="last"`);
  void reply.header('link', links.join(', ')).header('x-total-count', String(total));
  return { users: await loadUsersJson(dataSource.manager, users), aud };
}

/** `POST /admin/users` (contract §2.8). */
export async function createUser(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context }: RouteCall,
): Promise<unknown> {
  const { dataSource } = context;
  const body = readBody(request, userBody);
  if (body.email === '' && body.phone === '') {
    throw validationFailed('Cannot create a user without either an email or phone');
  }
  if (body.phone !== '') throw phoneDisabled('signups');
  const email = validateEmail(body.email);
  if (await findUserByEmail(dataSource.manager, email)) throw unprocessable('email_exists', DUPLICATE_EMAIL);
  if (body.password != null && body.password_hash !== '') {
    throw validationFailed('Only a password or a password hash should be provided');
  }
  let encryptedPassword: string;
  if (body.password_hash !== '') {
    if (!isSupportedHash(body.password_hash))
      throw validationFailed('Invalid password hash: bcrypt or argon2 expected');
    encryptedPassword = body.password_hash;
  } else {
    const given = body.password ?? '';
    const password = given === '' ? generatedPassword() : given;
    checkPasswordLength(password);
    encryptedPassword = await hashPassword(password);
  }
  if (body.id !== '' && !isUuid(body.id)) throw validationFailed('ID must conform to the uuid v4 format');
  if (body.id !== '' && isNilUuid(body.id)) throw validationFailed('ID cannot be a nil uuid');
  const ban = bannedUntil(body.ban_duration);

  const user = newUser({
    id: body.id === '' ? undefined : body.id.toLowerCase(),
    email,
    aud: body.aud === '' ? adminRequestAud(request, context) : body.aud,
    role: body.role === '' ? DEFAULT_ROLE : body.role,
    encryptedPassword,
    userMetadata: body.user_metadata ?? {},
    appMetadata: mergeMetadata({ provider: 'email', providers: ['email'] }, body.app_metadata ?? {}),
  });
  if (ban !== undefined) user.bannedUntil = ban;
  return dataSource.transaction(async (manager) => {
    await saveUser(manager, user);
    await createEmailIdentity(manager, user);
    if (body.email_confirm) await confirmEmail(manager, user);
    return loadUserJson(manager, user);
  });
}

/** `GET /admin/users/:id` (contract §2.8). */
export async function adminGetUser(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context }: RouteCall,
): Promise<unknown> {
  const { dataSource } = context;
  const user = await loadUser(request, dataSource.manager);
  return loadUserJson(dataSource.manager, user);
}

/** `PUT /admin/users/:id` (contract §2.8). */
export async function adminUpdateUser(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context }: RouteCall,
): Promise<unknown> {
  const { settings, dataSource } = context;
  const user = await loadUser(request, dataSource.manager);
  const body = readBody(request, userBody);
  const email = body.email === '' ? '' : validateEmail(body.email);
  if (body.phone !== '') throw phoneDisabled('signups');
  if (email !== '' && email !== user.email) {
    const other = await findUserByEmail(dataSource.manager, email);
    if (other && other.id !== user.id) throw unprocessable('email_exists', DUPLICATE_EMAIL);
  }
  const ban = bannedUntil(body.ban_duration);
  let encryptedPassword: string | undefined;
  if (body.password != null) {
    checkPasswordStrength(body.password, settings.passwordMinLength);
    encryptedPassword = await hashPassword(body.password);
  }

  // The changes go to the row as it is now: the copy read before hashing may be stale.
  return dataSource.transaction(async (manager) => {
    const fresh = await lockUser(manager, user.id);
    if (!fresh) throw userNotFound();
    if (body.role !== '') fresh.role = body.role.trim();
    if (encryptedPassword !== undefined) {
      fresh.encryptedPassword = encryptedPassword;
      await clearPendingTokens(manager, fresh);
      await logoutSessions(manager, fresh.id, { all: true });
    }
    if (email !== '' && email !== fresh.email) {
      fresh.email = email;
      await updateEmailIdentity(manager, fresh, { email, email_verified: body.email_confirm ?? false });
    }
    if (body.app_metadata) fresh.appMetadata = mergeMetadata(fresh.appMetadata, body.app_metadata);
    if (body.user_metadata) fresh.userMetadata = mergeMetadata(fresh.userMetadata, body.user_metadata);
    if (ban !== undefined) fresh.bannedUntil = ban;
    fresh.updatedAt = new Date();
    await saveUser(manager, fresh);
    if (body.email_confirm) await confirmEmail(manager, fresh);
    return loadUserJson(manager, fresh);
  });
}

/** `DELETE /admin/users/:id` (contract §2.8), hard or soft. */
export async function deleteUser(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context }: RouteCall,
): Promise<unknown> {
  const { dataSource } = context;
  const { id } = await loadUser(request, dataSource.manager);
  const { should_soft_delete: soft } = readBody(request, deleteBody);
  await dataSource.transaction(async (manager) => {
    if (!soft) {
      await manager.delete(AuthUserRecord, { id });
      return;
    }
    const user = await lockUser(manager, id);
    if (!user) throw userNotFound();
    if (user.deletedAt) return;
    await logoutSessions(manager, id, { all: true });
    await clearPendingTokens(manager, user);
    Object.assign(user, { deletedAt: new Date(), email: null, encryptedPassword: null, updatedAt: new Date() });
    await manager.save(AuthUserRecord, user);
  });
  return {};
}
