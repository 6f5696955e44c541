import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { ButtonStyle, Layout, Theme } from '../../server/src/profiles/appearance.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';

let sequence = 0;

export interface MemberRecords {
  user: UserRecord;
  profile: ProfileRecord;
}

/** A user record with the defaults of a new member, not yet written (`insertMember` writes one with its profile). */
export function buildUser(overrides: Partial<UserRecord> = {}): UserRecord {
  sequence += 1;
  return Object.assign(new UserRecord(), {
    uid: randomUUID(),
    email: `member${sequence}@example.com`,
    first: 'Grace',
    birthday: null,
    joined: new Date(),
    platform: 'web',
    platformID: null,
    stripeRole: null,
    deletingAt: null,
    hiddenReason: null,
    hiddenAt: null,
    bannedUntil: null,
    ...overrides,
  });
}

/**
 * Writes a member's records straight into the database, for tests about reading and rendering
 * profiles. Tests about signing up go through the API instead.
 */
export async function insertMember(
  dataSource: DataSource,
  overrides: { user?: Partial<UserRecord>; profile?: Partial<ProfileRecord> } = {},
): Promise<MemberRecords> {
  const now = new Date();
  const user = buildUser({ joined: now, ...overrides.user });
  const uid = user.uid;
  const profile = Object.assign(new ProfileRecord(), {
    uid,
    name: user.first,
    username: `member${sequence}${uid.slice(0, 4)}`,
    bio: '',
    button: ButtonStyle.normalButton,
    layout: Layout.row,
    theme: Theme.lightTheme,
    joined: now,
    isActive: true,
    isPublic: true,
    welcome: false,
    verseId: 'Heb.3.4',
    verseRef: 'Hebrews 3:4',
    verseText: 'For every house is builded by some man; but he that built all things is God.',
    verseDay: now.toISOString().slice(0, 10),
    versePinned: false,
    updatedAt: now,
    ...overrides.profile,
  });
  await dataSource.getRepository(UserRecord).insert(user);
  await dataSource.getRepository(ProfileRecord).insert(profile);
  return { user, profile };
}
