// L5: several instances on one PostgreSQL and one Redis, as production scales out. Each instance
// has its own database pool and HTTP server; they share only what the deployment shares.
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSource } from '../../server/src/app/data-source.js';
import { BillingEventRecord, BillingSubscriptionRecord } from '../../server/src/billing/billing.entities.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import { claimRun, runIfDue } from '../../server/src/jobs/schedule.js';
import { LinkClickDayRecord } from '../../server/src/links/link.entity.js';
import { UserRecord } from '../../server/src/members/user.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { checkout } from '../support/billing.js';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import { GOOD_PASSWORD, identityKeys } from '../support/identity.js';
import type { MemberData, SessionData } from '../support/members.js';
import { LOGIN, ME, SESSION_FIELDS, signUpMember } from '../support/members.js';
import { postgresAdminUrl } from '../support/postgres.js';
import type { FakeStripe } from '../support/stripe-fake.js';
import { deliver, signEvent, startFakeStripe } from '../support/stripe-fake.js';
import { actUntilHeard, subscriptionClient } from '../support/subscriptions.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOUR_MS = 60 * 60 * 1000;

/** Redis's answer to PING, over a plain connection (the first line it sends back). */
function redisPing(address: string): Promise<string> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379), timeout: 3000 });
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      resolve(data.toString('utf8').trim());
      socket.end();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('timed out'));
    });
    socket.once('error', reject);
  });
}

/** A client address of its own for one test (Redis keeps rate-limit counts between runs). */
function freshAddress(): string {
  return `10.${[0, 0, 0].map(() => randomBytes(1)[0] ?? 1).join('.')}`;
}

let database: TestDatabase;
let stripe: FakeStripe;
let plusPrice: string;
let one: TestApp;
let two: TestApp;

beforeAll(async () => {
  await expect(
    redisPing(REDIS_URL),
    `The scale-out tests need Redis at ${REDIS_URL} (set TEST_REDIS_URL)`,
  ).resolves.toBe('+PONG');
  database = await createTestDatabase();
  stripe = await startFakeStripe();
  plusPrice = stripe.addPrice({ product: stripe.addProduct({ name: 'Lampstand Plus' }).id, unitAmount: 499 }).id;
  // One deployment: the same database, Redis, token secret and Stripe account; limits low enough
  // to reach; a proxy in front on loopback, so that each test can be its own client address.
  const shared = {
    ...stripe.env,
    TRUST_PROXY: 'loopback',
    REDIS_URL,
    AUTH_JWT_SECRET: randomBytes(48).toString('base64'),
    AUTH_MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    // Behind one address every instance has the same PUBLIC_URL, hence the same token issuer;
    // here each listens on its own port, so the issuer is set to what that address would give.
    AUTH_JWT_ISSUER: 'https://lampstand.test/auth/v1',
    AUTH_RATE_LIMIT_TOKEN: '6',
    AUTH_RATE_LIMIT_TOKEN_BURST: '6',
  };
  one = await startTestApp(shared, {}, { database });
  two = await startTestApp(shared, {}, { database });
  await Promise.all([one.app.billing.syncCatalog(), two.app.billing.syncCatalog()]);
});
afterAll(async () => {
  await one.close();
  await two.close();
  await stripe.close();
  await database.drop();
});

describe('two instances on one PostgreSQL and one Redis', () => {
  it('end a session on both when it is logged out on one', async () => {
    const { email, session } = await signUpMember(one);
    const before = await two.graphql<{ me: MemberData | null }>(ME, {}, { token: session.accessToken });
    expect(before.data?.me?.user.email).toBe(email);
    const logout = await one.graphql('mutation { logout }', {}, { token: session.accessToken });
    expect(logout.errors).toBeUndefined();
    const after = await two.graphql(ME, {}, { token: session.accessToken });
    expect(after.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('end every other session on both at once when the password changes on one', async () => {
    const headers = { 'x-forwarded-for': freshAddress() };
    const { email, session } = await signUpMember(one);
    const onTwo = await two.graphql<{ login: { session: SessionData } }>(
      LOGIN,
      { input: { email, password: GOOD_PASSWORD } },
      { headers },
    );
    const otherDevice = onTwo.data?.login.session.accessToken ?? '';
    const before = await two.graphql<{ me: MemberData | null }>(ME, {}, { token: otherDevice });
    expect(before.data?.me?.user.email).toBe(email);

    const changed = await one.graphql<{ changePassword: { session: SessionData } }>(
      `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { session { ${SESSION_FIELDS} } } }`,
      { input: { currentPassword: GOOD_PASSWORD, newPassword: 'a new passphrase on one' } },
      { token: session.accessToken, headers },
    );
    expect(changed.errors).toBeUndefined();
    for (const token of [otherDevice, session.accessToken]) {
      const after = await two.graphql(ME, {}, { token });
      expect(after.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    const kept = await two.graphql<{ me: MemberData | null }>(
      ME,
      {},
      {
        token: changed.data?.changePassword.session.accessToken ?? '',
      },
    );
    expect(kept.errors, JSON.stringify(kept.errors)).toBeUndefined();
    expect(kept.data?.me?.user.email).toBe(email);
  });

  it('apply a Stripe event delivered to both at the same moment once, and record it once', async () => {
    const member = await signUpMember(one);
    const deployment = { api: one, stripe, plusPrice, plusProduct: '', close: () => Promise.resolve() };
    const customer = await checkout(deployment, member);
    const session = stripe.checkoutSessions.at(-1);
    if (!session) throw new Error('no checkout session');
    const subscription = stripe.payCheckoutSession(session);
    const event = stripe.event('checkout.session.completed', session);
    const delivery = signEvent(event);

    const responses = await Promise.all([one, two, one, two].map((api) => deliver(api, delivery)));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(responses.filter((response) => response.body.duplicate === false)).toHaveLength(1);
    const events = await one.dataSource.getRepository(BillingEventRecord).findBy({ id: String(event.id) });
    expect(events).toHaveLength(1);
    const subscriptions = await two.dataSource
      .getRepository(BillingSubscriptionRecord)
      .findBy({ customerId: customer });
    expect(subscriptions.map((record) => record.id)).toEqual([subscription.id]);
    const user = await two.dataSource.getRepository(UserRecord).findOneByOrFail({ uid: member.member.user.uid });
    expect(user.stripeRole).toBe('plus');
  });

  it('read on one a profile change made on the other', async () => {
    const { session, member } = await signUpMember(one);
    const read = () =>
      two.graphql<{ profile: { name: string } | null }>(
        'query ($username: String!) { profile(username: $username) { name } }',
        { username: member.profile.username },
      );
    // Read on two first, twice: its answer is kept there (each instance keeps public answers).
    await read();
    expect((await read()).data?.profile?.name).toBe(member.profile.name);
    const update = await one.graphql(
      'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }',
      { input: { name: 'Changed on one' } },
      { token: session.accessToken },
    );
    expect(update.errors).toBeUndefined();
    // Two hears of the commit through PostgreSQL (NOTIFY) within moments.
    await expect.poll(async () => (await read()).data?.profile?.name, { timeout: 2000 }).toBe('Changed on one');
  });

  it("keep on one another member's answer when a member changes their page on the other", async () => {
    const changing = await signUpMember(one);
    const other = await signUpMember(one);
    const query = 'query ($username: String!) { profile(username: $username) { name } }';
    const cachedOnOne = async () =>
      (await one.app.metrics.registry.getSingleMetric('lampstand_graphql_cached_answers_total')?.get())?.values[0]
        ?.value ?? 0;
    const readOn = (api: TestApp, username: string) =>
      api.graphql<{ profile: { name: string } | null }>(query, { username });
    // Both pages read on one until each is kept there.
    for (const { member } of [changing, other]) {
      await expect
        .poll(async () => {
          const before = await cachedOnOne();
          await readOn(one, member.profile.username);
          return (await cachedOnOne()) > before;
        })
        .toBe(true);
    }
    const update = await two.graphql(
      'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }',
      { input: { name: 'Changed on two' } },
      { token: changing.session.accessToken },
    );
    expect(update.errors).toBeUndefined();
    await expect
      .poll(async () => (await readOn(one, changing.member.profile.username)).data?.profile?.name, { timeout: 2000 })
      .toBe('Changed on two');
    // The notice named the member who changed: the other page is still answered from one's cache.
    const before = await cachedOnOne();
    expect((await readOn(one, other.member.profile.username)).data?.profile?.name).toBe(other.member.profile.name);
    expect(await cachedOnOne()).toBe(before + 1);
  });

  it('count a visitor once a day whichever instance they reach, without storing who (B15)', async () => {
    const member = await signUpMember(one);
    const added = await one.graphql<{ addLink: { id: string } }>(
      'mutation ($input: LinkInput!) { addLink(input: $input) { id } }',
      { input: { title: 'Church', url: 'https://example.org/church' } },
      { token: member.session.accessToken },
    );
    const linkId = added.data?.addLink.id ?? '';
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
    const address = freshAddress();
    const follow = (api: TestApp, userAgent: string) =>
      fetch(`${api.url}/l/${linkId}`, {
        redirect: 'manual',
        headers: { 'user-agent': userAgent, 'x-forwarded-for': address },
      });
    for (let round = 0; round < 5; round += 1) {
      expect((await follow(one, browser)).status).toBe(302);
      expect((await follow(two, browser)).status).toBe(302);
    }
    await follow(two, `${browser} Edg/131.0`);
    await follow(one, `${browser} Edg/131.0`);
    const rows = await one.dataSource.getRepository(LinkClickDayRecord).findBy({ linkId });
    expect(rows.map((row) => row.clicks)).toEqual([2]);
    expect(JSON.stringify(rows)).not.toContain(address);
  });

  it("send a click on one to the member's pageActivity subscriber on the other (through Redis)", async () => {
    const member = await signUpMember(one);
    const added = await one.graphql<{ addLink: { id: string } }>(
      'mutation ($input: LinkInput!) { addLink(input: $input) { id } }',
      { input: { title: 'Church', url: 'https://example.org/church' } },
      { token: member.session.accessToken },
    );
    const linkId = added.data?.addLink.id ?? '';
    const listener = subscriptionClient(two.url, member.session.accessToken);
    try {
      const heard = listener.subscribe<{ pageActivity: { kind: string; linkId: string | null } }>(
        'subscription { pageActivity { kind linkId } }',
      );
      // A new visitor each time: each one's click counts, and so is published.
      await actUntilHeard(heard, () =>
        fetch(`${one.url}/l/${linkId}`, {
          redirect: 'manual',
          headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', 'x-forwarded-for': freshAddress() },
        }),
      );
      expect(heard.results[0]?.data?.pageActivity).toEqual({ kind: 'click', linkId });
    } finally {
      await listener.dispose();
    }
  });

  it('count rate limits across both', async () => {
    // A client address of its own (Redis keeps counts between runs), vouched for with the
    // service-role key as a trusted server would.
    const address = freshAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const api = attempt % 2 === 0 ? one : two;
      const response = await fetch(`${api.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: {
          apikey: identityKeys(api).serviceRoleKey,
          'sb-forwarded-for': address,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email: 'nobody@example.org', password: 'not the password' }),
      });
      statuses.push(response.status);
    }
    // Six token grants per window for one client address, whichever instance answers.
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429, 429]);
  });

  it('run a background job once per interval across instances', async () => {
    const name = `test-job-${randomBytes(3).toString('hex')}`;
    const now = new Date();
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, index) => claimRun((index % 2 === 0 ? one : two).dataSource, name, HOUR_MS, now)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const soon = await claimRun(two.dataSource, name, HOUR_MS, new Date(now.getTime() + HOUR_MS - 1));
    expect(soon).toBe(false);
    const next = await Promise.all(
      [one, two, one, two].map((api) => claimRun(api.dataSource, name, HOUR_MS, new Date(now.getTime() + HOUR_MS))),
    );
    expect(next.filter(Boolean)).toHaveLength(1);
  });

  it('never start a job on one while a run of it longer than its interval goes on on the other', async () => {
    const name = `slow-job-${randomBytes(3).toString('hex')}`;
    let running = 0;
    let most = 0;
    let runs = 0;
    let finish = (): void => undefined;
    const slowRun = {
      name,
      intervalMs: 200,
      run: async () => {
        running += 1;
        runs += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        running -= 1;
      },
    };
    const failures: unknown[] = [];
    const failed = (error: unknown): void => {
      failures.push(error);
    };
    const first = runIfDue(one.dataSource, slowRun, failed);
    await expect.poll(() => runs).toBe(1);
    // Three intervals later the first run still holds its claim.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await runIfDue(two.dataSource, slowRun, failed)).toBe(false);
    finish();
    expect(await first).toBe(true);
    expect(most).toBe(1);
    // The next run is due an interval after this one ended.
    expect(await runIfDue(two.dataSource, { ...slowRun, run: () => Promise.resolve() }, failed)).toBe(false);
    expect(failures).toEqual([]);
  });
});

describe('instances starting together on a fresh database', () => {
  it('migrate it once', async () => {
    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    const name = `lampstand_fresh_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresAdminUrl());
    url.pathname = `/${name}`;
    const sources = [0, 1, 2].map(() => createDataSource({ type: 'postgres', url: url.toString() }));
    const [first] = sources;
    if (!first) throw new Error('no data source');
    try {
      await Promise.all(sources.map((source) => openDatabase(source)));
      const migrations = await first.query<{ count: number }[]>('SELECT count(*)::int AS count FROM migrations');
      expect(migrations).toEqual([{ count: first.migrations.length }]);
      // Each translation's verses were loaded once: the KJV's 31,102 and the World English Bible's 31,098.
      const verses = await first.query<{ translation: string; count: number }[]>(
        'SELECT translation, count(*)::int AS count FROM verses GROUP BY translation ORDER BY translation',
      );
      expect(verses).toEqual([
        { translation: 'KJV', count: 31_102 },
        { translation: 'WEB', count: 31_098 },
      ]);
    } finally {
      for (const source of sources) if (source.isInitialized) await source.destroy();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
