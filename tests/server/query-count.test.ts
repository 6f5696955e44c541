import { In } from 'typeorm';
import type { DataSource, Logger } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSource } from '../../server/src/app/data-source.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import { insertMember } from '../support/factories.js';

/** Counts the SQL statements the app sends, by way of TypeORM's logger. */
class CountingLogger implements Logger {
  statements: string[] = [];
  logQuery(query: string): void {
    if (!/^(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|PRAGMA|SELECT 1)/i.test(query)) this.statements.push(query);
  }
  logQueryError(): void {
    // errors surface in the test's own assertions
  }
  logQuerySlow(): void {
    // timing is not measured here
  }
  logSchemaBuild(): void {
    // the schema is built by migrations
  }
  logMigration(): void {
    // migrations ran before the app started
  }
  log(): void {
    // other messages are not statements
  }
}

const logger = new CountingLogger();
let database: TestDatabase;
let dataSource: DataSource;
let api: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await openDatabase(createDataSource(database.database, { logger }));
  api = await startTestApp(database.env, { dataSource }, { database });
});
afterAll(async () => {
  await api.close();
  await dataSource.destroy();
  await database.drop();
});

describe('N+1 guard', () => {
  it('reads 50 profiles, their owners and verses in at most 3 statements', async () => {
    const usernames: string[] = [];
    for (let index = 0; index < 50; index += 1) {
      const { profile } = await insertMember(api.dataSource, { profile: { verseDay: '2028-02-29' } });
      usernames.push(profile.username);
    }
    const fields = usernames.map(
      (username, index) =>
        `p${index}: profile(username: "${username}") { name plus appearance { theme } verse(date: "2028-02-29") { id } }`,
    );
    logger.statements = [];
    const response = await api.graphql<Record<string, { name: string } | null>>(`{ ${fields.join('\n')} }`);
    expect(response.errors).toBeUndefined();
    expect(Object.values(response.data ?? {}).filter((profile) => profile !== null)).toHaveLength(50);
    expect(logger.statements.length, logger.statements.join('\n')).toBeLessThanOrEqual(3);
    expect(logger.statements.some((sql) => sql.includes('FROM "profiles"'))).toBe(true);
    // Owners come with their profiles (a join) or in a statement of their own.
    expect(logger.statements.some((sql) => /(FROM|JOIN) "users"/.test(sql))).toBe(true);
  });

  it('brings 50 stored verses forward to a new day in one write, reading in at most 3 statements', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const members = [];
    for (let index = 0; index < 50; index += 1) {
      members.push(await insertMember(api.dataSource, { profile: { verseDay: yesterday } }));
    }
    const fields = members.map(
      ({ profile }, index) => `p${index}: profile(username: "${profile.username}") { verse(date: "${today}") { id } }`,
    );
    logger.statements = [];
    const response = await api.graphql<Record<string, { verse: { id: string } } | null>>(`{ ${fields.join('\n')} }`);
    expect(response.errors).toBeUndefined();
    const shown = new Set(Object.values(response.data ?? {}).map((profile) => profile?.verse.id));
    expect(shown.size).toBe(1);

    const writes = logger.statements.filter((sql) => /^UPDATE/i.test(sql));
    const reads = logger.statements.filter((sql) => !/^UPDATE/i.test(sql));
    expect(writes, writes.join('\n')).toHaveLength(1);
    expect(reads.length, reads.join('\n')).toBeLessThanOrEqual(3);
    const stored = await api.dataSource
      .getRepository(ProfileRecord)
      .findBy({ uid: In(members.map(({ user }) => user.uid)) });
    expect(stored.map((profile) => [profile.verseDay, profile.verseId])).toEqual(
      Array.from({ length: 50 }, () => [today, [...shown][0]]),
    );
  });
});
