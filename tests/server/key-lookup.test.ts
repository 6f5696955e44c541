import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSource } from '../../server/src/app/data-source.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import { joinedKeyLookup, keyLookup } from '../../server/src/db/key-lookup.js';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import type { TestDatabase } from '../support/database.js';
import { createTestDatabase } from '../support/database.js';
import { insertMember } from '../support/factories.js';

let database: TestDatabase;
let dataSource: DataSource;
beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await openDatabase(createDataSource(database.database));
});
afterAll(async () => {
  await dataSource.destroy();
  await database.drop();
});

describe('a lookup by one key', () => {
  it('reads the same records at every run, on every connection, as TypeORM reads them', async () => {
    const { user, profile } = await insertMember(dataSource, { user: { birthday: '1990-04-02' } });
    const byUsername = joinedKeyLookup(dataSource, ProfileRecord, 'username', {
      entity: UserRecord,
      on: ['uid', 'uid'],
    });
    const byUid = keyLookup(dataSource, UserRecord, 'uid');
    const [profileRead, userRead] = await Promise.all([
      dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: profile.uid }),
      dataSource.getRepository(UserRecord).findOneByOrFail({ uid: user.uid }),
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
