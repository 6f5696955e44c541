import type { EntityManager } from 'typeorm';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import { UserRecord } from '../members/user.entity.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { isUuid } from '../rules/uuid.js';

/**
 * The member an operator names: by id, by email address, or by username (`@name` or `name`).
 * `NOT_FOUND` when there is none; `BAD_USER_INPUT` when nothing was named.
 */
export async function findMember(manager: EntityManager, target: string | undefined): Promise<UserRecord> {
  const key = (target ?? '').trim();
  if (key === '') throw badUserInput('Name an account: its id, email address or @username.', 'account');
  let user: UserRecord | null;
  if (isUuid(key)) user = await manager.findOneBy(UserRecord, { uid: key.toLowerCase() });
  else if (key.includes('@') && !key.startsWith('@')) {
    user = await manager
      .createQueryBuilder(UserRecord, 'member')
      .where('LOWER(member.email) = :email', { email: key.toLowerCase() })
      .getOne();
  } else {
    const profile = await manager.findOneBy(ProfileRecord, { username: key.replace(/^@/, '').toLowerCase() });
    user = profile ? await manager.findOneBy(UserRecord, { uid: profile.uid }) : null;
  }
  if (!user) throw appError(ErrorCode.NOT_FOUND, `No account matches ${key}.`);
  return user;
}
