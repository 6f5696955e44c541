import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import { signUpMember } from '../support/members.js';

// Two instances on one database, as several processes share it in production (or an instance and
// the admin command): anonymous answers are kept by each, and every change made anywhere shows.
let database: TestDatabase;
let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  database = await createTestDatabase();
  // One token secret and issuer for both, as behind one address, so that a token verifies on either.
  const env = {
    AUTH_JWT_SECRET: randomBytes(48).toString('base64'),
    AUTH_JWT_ISSUER: 'https://lampstand.test/auth/v1',
  };
  one = await startTestApp(env, {}, { database });
  two = await startTestApp(env, {}, { database });
});
afterAll(async () => {
  await one.close();
  await two.close();
  await database.drop();
});

const PAGE = `query ($username: String!) {
  profile(username: $username) { username name bio links { title url } }
}`;

interface Page {
  profile: { username: string; name: string; bio: string; links: { title: string; url: string }[] } | null;
}

async function cachedAnswers(api: TestApp): Promise<number> {
  const metric = await api.app.metrics.registry.getSingleMetric('lampstand_graphql_cached_answers_total')?.get();
  return metric?.values[0]?.value ?? 0;
}

/** The page as visitors read it from `api`, byte for byte. */
async function read(api: TestApp, username: string): Promise<string> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: PAGE, variables: { username } }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

const pageOf = (body: string) => (JSON.parse(body) as { data: Page }).data.profile;

/** Reads the page until the cache serves it: the next read of it is a hit. */
async function kept(api: TestApp, username: string): Promise<string> {
  const first = await read(api, username);
  await expect
    .poll(async () => {
      const before = await cachedAnswers(api);
      const again = await read(api, username);
      return (await cachedAnswers(api)) > before && again === first;
    })
    .toBe(true);
  return first;
}

describe('kept public answers', () => {
  it('answer a repeated anonymous query from the cache, with the same bytes', async () => {
    const { member } = await signUpMember(one);
    const first = await kept(one, member.profile.username);
    expect(pageOf(first)?.username).toBe(member.profile.username);
    const before = await cachedAnswers(one);
    expect(await read(one, member.profile.username)).toBe(first);
    expect(await cachedAnswers(one)).toBe(before + 1);
  });

  it("never answer a signed-in member's query from them", async () => {
    const { member, session } = await signUpMember(one);
    await kept(one, member.profile.username);
    const before = await cachedAnswers(one);
    const signedIn = await one.graphql<Page>(
      PAGE,
      { username: member.profile.username },
      { token: session.accessToken },
    );
    expect(signedIn.data?.profile?.username).toBe(member.profile.username);
    expect(await cachedAnswers(one)).toBe(before);
  });

  it("show a member's change at the next read on the same instance", async () => {
    const { member, session } = await signUpMember(one);
    const { username } = member.profile;
    await kept(one, username);
    const update = await one.graphql(
      'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }',
      { input: { name: 'Changed at once', bio: 'Psalm 119:105' } },
      { token: session.accessToken },
    );
    expect(update.errors).toBeUndefined();
    expect(pageOf(await read(one, username))).toMatchObject({ name: 'Changed at once', bio: 'Psalm 119:105' });

    await kept(one, username);
    const added = await one.graphql(
      'mutation ($input: LinkInput!) { addLink(input: $input) { id } }',
      { input: { title: 'Our church', url: 'https://church.example/' } },
      { token: session.accessToken },
    );
    expect(added.errors).toBeUndefined();
    expect(pageOf(await read(one, username))?.links).toEqual([{ title: 'Our church', url: 'https://church.example/' }]);
  });

  it("keep other members' answers when one member changes their page", async () => {
    const a = await signUpMember(one);
    const b = await signUpMember(one);
    const pageOfA = await kept(one, a.member.profile.username);
    const pageOfB = await kept(one, b.member.profile.username);
    const update = await one.graphql(
      'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }',
      { input: { name: 'Only A changed' } },
      { token: a.session.accessToken },
    );
    expect(update.errors).toBeUndefined();
    const before = await cachedAnswers(one);
    expect(await read(one, b.member.profile.username)).toBe(pageOfB);
    expect(await cachedAnswers(one)).toBe(before + 1);
    const changed = await read(one, a.member.profile.username);
    expect(changed).not.toBe(pageOfA);
    expect(pageOf(changed)?.name).toBe('Only A changed');
    expect(await cachedAnswers(one)).toBe(before + 1);
  });

  it('send with a kept answer to a GET the ETag of its bytes, and none with it to a POST', async () => {
    const { member } = await signUpMember(one);
    const { username } = member.profile;
    await kept(one, username);
    const url = `${one.url}/graphql?${new URLSearchParams({ query: PAGE, variables: JSON.stringify({ username }) }).toString()}`;
    const first = await fetch(url);
    const before = await cachedAnswers(one);
    const hit = await fetch(url);
    expect(await cachedAnswers(one)).toBe(before + 1);
    expect(await hit.text()).toBe(await first.text());
    expect(hit.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(hit.headers.get('etag')).toBe(first.headers.get('etag'));
    const posted = await fetch(`${one.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PAGE, variables: { username } }),
    });
    expect(await cachedAnswers(one)).toBe(before + 2);
    expect(posted.headers.get('etag')).toBeNull();
    expect(posted.headers.get('cache-control')).toBe('no-store');
  });

  it('hide a page at the next read when its record is changed directly', async () => {
    const { member } = await signUpMember(one);
    const { username } = member.profile;
    await kept(one, username);
    await one.dataSource
      .getRepository(UserRecord)
      .update({ uid: member.user.uid }, { hiddenReason: 'Spam', hiddenAt: new Date() });
    expect(pageOf(await read(one, username))).toBeNull();
  });

  it('show on one instance a change made on the other', async () => {
    const { member, session } = await signUpMember(one);
    const { username } = member.profile;
    await kept(one, username);
    await kept(two, username);
    const update = await two.graphql(
      'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }',
      { input: { name: 'Changed on two' } },
      { token: session.accessToken },
    );
    expect(update.errors).toBeUndefined();
    expect(pageOf(await read(two, username))?.name).toBe('Changed on two');
    // The other instance hears of it through the database (a notice on PostgreSQL, the file's
    // data version on SQLite, read at most every 50 ms): within moments, not at the minute's turn.
    await expect.poll(async () => pageOf(await read(one, username))?.name, { timeout: 2000 }).toBe('Changed on two');
  });
});
