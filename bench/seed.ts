// Seeds members straight into a migrated database: a user and a public profile each, in chunks,
// in one transaction (seconds for 100k, where sign-ups would take an hour of password hashing).
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { LinkRecord } from '../server/src/links/link.entity.js';
import { UserRecord } from '../server/src/members/user.entity.js';
import { ProfileRecord } from '../server/src/profiles/profile.entity.js';
import { newProfile } from '../server/src/profiles/profile.defaults.js';
import { Verse } from '../server/src/verses/verse.types.js';

const CHUNK = 500;

/** The default verse every new member starts with (the seed does not read the verses table). */
const HEBREWS_3_4 = Object.assign(new Verse(), {
  id: 'Heb.3.4',
  ref: 'Hebrews 3:4',
  text: 'For every house is builded by some man; but he that built all things is God.',
  translation: 'KJV',
});

/** The username of the n-th seeded member (the load rotates over them). */
export function seededUsername(index: number): string {
  return `bench${index}`;
}

/** The id of the n-th seeded member's link (seeded with `links`): a UUID, as `/l/<id>` asks. */
export function seededLinkId(index: number): string {
  return `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
}

/** `count` members, each with one visible link on their page when `links` is set (P11 clicks them). */
export async function seedMembers(dataSource: DataSource, count: number, { links = false } = {}): Promise<void> {
  const now = new Date();
  await dataSource.transaction(async (manager) => {
    for (let start = 0; start < count; start += CHUNK) {
      const users: UserRecord[] = [];
      const profiles: ProfileRecord[] = [];
      const buttons: LinkRecord[] = [];
      for (let index = start; index < Math.min(count, start + CHUNK); index++) {
        const uid = randomUUID();
        users.push(
          Object.assign(new UserRecord(), {
            uid,
            email: `${seededUsername(index)}@bench.example`,
            first: `Member ${index}`,
            birthday: null,
            joined: now,
            platform: 'bench',
            platformID: null,
            stripeRole: null,
            deletingAt: null,
          }),
        );
        // A new member's profile as sign-up makes it, with its name, username and day set here.
        profiles.push(
          newProfile({
            uid,
            name: `Member ${index}`,
            username: seededUsername(index),
            verse: HEBREWS_3_4,
            day: now.toISOString().slice(0, 10),
            now,
          }),
        );
        if (links) {
          buttons.push(
            Object.assign(new LinkRecord(), {
              id: seededLinkId(index),
              uid,
              title: 'My church',
              url: `https://church.example/${index}`,
              position: 0,
              hidden: false,
              visibleFrom: null,
              visibleUntil: null,
              highlighted: false,
              createdAt: now,
            }),
          );
        }
      }
      await manager.insert(UserRecord, users);
      await manager.insert(ProfileRecord, profiles);
      if (buttons.length > 0) await manager.insert(LinkRecord, buttons);
    }
  });
}
