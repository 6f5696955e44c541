import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { UserRecord } from '../../server/src/accounts/user.entity.js';
import { ButtonStyle, Layout, Theme } from '../../server/src/profiles/appearance.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';

let sequence = 0;

export interface MemberRecords {
  user: UserRecord;
  profile: ProfileRecord;
}

/**
 * Writes a member's records straight into the database, for tests about reading and rendering
 * profiles. Tests about signing up go through the API instead.
 */
export async function insertMember(
  dataSource: DataSource,
  overrides: { user?: Partial<UserRecord>; profile?: Partial<ProfileRecord> } = {},
): Promise<MemberRecords> {
  sequence += 1;
  const uid = overrides.user?.uid ?? randomUUID();
  const now = new Date();
  const user = Object.assign(new UserRecord(), {
    uid,
    email: `member${sequence}@example.com`,
    first: 'Grace',
    birthday: null,
    joined: now,
    platform: 'web',
    platformID: null,
    stripeRole: null,
    deletingAt: null,
    ...overrides.user,
  });
  const profile = Object.assign(new ProfileRecord(), {
    uid,
    name: user.first,
    username: `member${sequence}${uid.slice(0, 4)}`,
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
