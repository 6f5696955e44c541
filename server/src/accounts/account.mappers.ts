import { hasVerifiedFactor } from '../identity/assurance.js';
import type { IdentitySession } from '../identity/identity.client.js';
import type { ProfileRecord } from '../profiles/profile.entity.js';
import { toProfile } from '../profiles/profile.mappers.js';
import { isPlus } from '../members/plus.js';
import type { SignedIn } from './account.service.js';
import { Plan } from '../members/plan.types.js';
import { Member, User } from './account.types.js';
import { AuthPayload, Session } from './session.types.js';
import type { UserRecord } from '../members/user.entity.js';

export function toUser(record: UserRecord): User {
  return Object.assign(new User(), {
    uid: record.uid,
    email: record.email,
    first: record.first,
    birthday: record.birthday,
    joined: record.joined,
    platform: record.platform,
    platformID: record.platformID,
  });
}

export function toMember(user: UserRecord, profile: ProfileRecord): Member {
  return Object.assign(new Member(), {
    user: toUser(user),
    profile: toProfile(profile),
    plan: isPlus(user) ? Plan.plus : Plan.free,
  });
}

export function toSession(session: IdentitySession): Session {
  return Object.assign(new Session(), {
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    expiresAt: new Date(session.expiresAt * 1000),
    expiresIn: session.expiresIn,
    mfaRequired: session.aal === 'aal1' && hasVerifiedFactor(session.user),
  });
}

/** A session still waiting for its second factor carries no member data (a password alone reads nothing private). */
export function toAuthPayload(signedIn: SignedIn): AuthPayload {
  const session = toSession(signedIn.session);
  return Object.assign(new AuthPayload(), {
    session,
    member: session.mfaRequired ? null : toMember(signedIn.user, signedIn.profile),
  });
}
