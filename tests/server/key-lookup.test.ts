import { describe, expect, it } from 'vitest';
import { joinedKeyLookup, keyLookup } from '../../server/src/db/key-lookup.js';
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
});
