import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { In } from 'typeorm';
import { joinedKeyLookup, keyLookup } from '../../server/src/db/key-lookup.js';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import { openTestDatabase } from '../support/database.js';
import { forTheFile } from '../support/for-the-file.js';
import { insertMember } from '../support/factories.js';

const db = forTheFile(openTestDatabase);

describe('a lookup by one key', () => {
  it('reads the same records at every run, on every connection, as TypeORM reads them', async () => {
    const { user, profile } = await insertMember(db.dataSource, { user: { birthday: '1990-04-02' } });
    const byUsername = joinedKeyLookup(db.dataSource, ProfileRecord, 'username', {
      entity: UserRecord,
      on: ['uid', 'uid'],
    });
    const byUid = keyLookup(db.dataSource, UserRecord, 'uid');
    const [profileRead, userRead] = await Promise.all([
      db.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: profile.uid }),
      db.dataSource.getRepository(UserRecord).findOneByOrFail({ uid: user.uid }),
    ]);

    // More reads at once than the pool has connections, then one after another on the same ones:
    // a statement's first run on a connection and its later runs give the same records.
    const rounds = [
      await Promise.all(Array.from({ length: 24 }, () => byUsername([profile.username]))),
      await Promise.all(Array.from({ length: 24 }, () => byUid([user.uid]))),
    ];
    for (let run = 0; run < 12; run++) {
      rounds.push([await byUsername([profile.username])], [await byUid([user.uid])]);
    }
    for (const reads of rounds) {
      for (const read of reads) {
        expect(read).toHaveLength(1);
        const [record] = read;
        if (Array.isArray(record)) expect(record).toEqual([profileRead, userRead]);
        else expect(record).toEqual(userRead);
      }
    }
    expect(await byUsername(['nobody-has-this-name'])).toEqual([]);
  });

  it('reads the rows in the order asked for, as TypeORM finds them, for several keys at once', async () => {
    const members = await Promise.all([insertMember(db.dataSource), insertMember(db.dataSource)]);
    const uids = members.map(({ user }) => user.uid);
    // Written out of order, hidden ones and a schedule among them.
    const links = [3, 0, 2, 1].flatMap((position) =>
      uids.map((uid) =>
        Object.assign(new LinkRecord(), {
          id: randomUUID(),
          uid,
          title: `Link ${position}`,
          url: `https://example.com/${position}`,
          position,
          hidden: position === 2,
          visibleFrom: position === 1 ? '2026-01-01T09:00' : null,
          visibleUntil: null,
          highlighted: position === 3,
          createdAt: new Date(Date.UTC(2026, 0, 1, position)),
        }),
      ),
    );
    await db.dataSource.getRepository(LinkRecord).insert(links);
    const found = await db.dataSource
      .getRepository(LinkRecord)
      .find({ where: { uid: In(uids) }, order: { position: 'ASC' } });

    const read = await keyLookup(db.dataSource, LinkRecord, 'uid', undefined, 'position')(uids);

    expect(found.map((link) => link.position)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(read).toEqual(found);
  });
});
