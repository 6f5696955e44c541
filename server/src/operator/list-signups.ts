import { badUserInput } from '../graphql/errors.js';
import { UserRecord } from '../members/user.entity.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { isLiveMember, pageHold } from '../rules/page-access.js';
import { planName } from '../rules/plan.js';
import { audit } from './audit.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

const MAX_PER_PAGE = 200;

/** One line of the sign-up listing. */
export interface SignUpRow {
  uid: string;
  email: string;
  username: string | null;
  name: string | null;
  joined: Date;
  plan: string;
  state: string;
}

/** LIKE's own wildcards in what the operator typed match themselves. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Sign-ups, newest first, a page at a time; `search` matches part of the email address, username
 * or name (any letter case). The listing shows addresses, so it is audited like any read of them.
 */
export async function listSignUps(
  call: OperatorCall,
  options: { search?: string; page?: number; perPage?: number },
): Promise<{ rows: SignUpRow[]; total: number; page: number; perPage: number }> {
  const page = options.page ?? 1;
  const perPage = options.perPage ?? 20;
  if (!Number.isInteger(page) || page < 1) throw badUserInput('--page must be a whole number from 1.', 'page');
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    throw badUserInput(`--per-page must be a whole number from 1 to ${String(MAX_PER_PAGE)}.`, 'perPage');
  }
  const search = options.search?.trim() ?? '';
  return inTransaction(call, async (manager) => {
    const query = manager
      .createQueryBuilder(UserRecord, 'member')
      .leftJoinAndMapOne('member.profile', ProfileRecord, 'profile', 'profile.uid = member.uid')
      .orderBy('member.joined', 'DESC')
      .addOrderBy('member.uid', 'ASC')
      .skip((page - 1) * perPage)
      .take(perPage);
    if (search !== '') {
      query.where(
        "(LOWER(member.email) LIKE :pattern ESCAPE '\\' OR profile.username LIKE :pattern ESCAPE '\\' " +
          "OR LOWER(profile.name) LIKE :pattern ESCAPE '\\')",
        { pattern: likePattern(search) },
      );
    }
    const [members, total] = await query.getManyAndCount();
    await audit(manager, call, { action: 'list', target: search, details: { page, perPage, total } });
    const rows = members.map((member) => {
      const profile = (member as UserRecord & { profile?: ProfileRecord }).profile ?? null;
      return {
        uid: member.uid,
        email: member.email,
        username: profile?.username ?? null,
        name: profile?.name ?? null,
        joined: member.joined,
        plan: planName(member.stripeRole),
        state: memberState(member),
      };
    });
    return { rows, total, page, perPage };
  });
}

/** A word for where the account stands: `deleting`, `banned`, `hidden` or `ok`. */
export function memberState(member: UserRecord, now = new Date()): string {
  if (!isLiveMember(member)) return 'deleting';
  const hold = pageHold(member, now);
  if (hold?.bannedUntil) return 'banned';
  return hold ? 'hidden' : 'ok';
}
