// B14: a page on another site can read the open queries, but cannot make its visitors' browsers
// change anything: mutations (public ones included) and the identity service's writes are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthUserRecord } from '../../server/src/identity/embedded/entities.js';
import { ReportRecord } from '../../server/src/moderation/moderation.entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';
import { GOOD_PASSWORD, uniqueEmail } from '../support/identity.js';
import { LOGIN, SIGN_UP } from '../support/members.js';

const FRIEND = 'https://friend.example';
const STRANGER = 'https://church.example';
const REPORT = 'mutation ($input: ReportPageInput!) { reportPage(input: $input) }';

let lean: TestApp;
let apolloOnly: TestApp;
beforeAll(async () => {
  // The lean executor answers public mutations without Apollo; with it off, Apollo answers them all.
  lean = await startTestApp({ CORS_ORIGINS: FRIEND, TRUST_PROXY: 'loopback' });
  apolloOnly = await startTestApp({ CORS_ORIGINS: FRIEND, TRUST_PROXY: 'loopback', GRAPHQL_LEAN_PUBLIC: 'false' });
});
afterAll(async () => {
  await lean.close();
  await apolloOnly.close();
});

let address = 0;
/** A client address of its own for each request, so that no rate limit is reached. */
function freshAddress(): string {
  address += 1;
  return `198.51.100.${String(address % 250)}`;
}

async function reportsOf(api: TestApp, username: string): Promise<number> {
  return api.dataSource.getRepository(ReportRecord).countBy({ username });
}

describe.each([
  ['the lean executor', () => lean],
  ['Apollo alone', () => apolloOnly],
])('GraphQL mutations through %s', (_name, apiOf) => {
  it('refuse reportPage from a page on another site, and file nothing', async () => {
    const api = apiOf();
    const { profile } = await insertMember(api.dataSource);
    const input = { username: profile.username, reason: 'spam' };
    const refused: Record<string, string>[] = [
      { origin: STRANGER },
      { origin: STRANGER, 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      // A browser that sends no Origin still says where the request came from.
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refused) {
      const response = await api.graphql(
        REPORT,
        { input },
        { headers: { ...headers, 'x-forwarded-for': freshAddress() } },
      );
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.data).toBeUndefined();
      expect(response.errors?.[0]?.extensions).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
    }
    expect(await reportsOf(api, profile.username)).toBe(0);
  });

  it('accept reportPage from the site, CORS_ORIGINS, its own pages, and servers and apps', async () => {
    const api = apiOf();
    const { profile } = await insertMember(api.dataSource);
    const input = { username: profile.username, reason: 'spam' };
    const allowed: Record<string, string>[] = [
      { origin: new URL(api.url).origin, 'sec-fetch-site': 'same-origin' },
      { origin: FRIEND, 'sec-fetch-site': 'cross-site' },
      // The app behind a development proxy: the browser vouches that the page is this site's own.
      { origin: 'http://localhost:5173', 'sec-fetch-site': 'same-origin' },
      {},
    ];
    for (const headers of allowed) {
      const response = await api.graphql(
        REPORT,
        { input },
        { headers: { ...headers, 'x-forwarded-for': freshAddress() } },
      );
      expect(response.errors, JSON.stringify(headers)).toBeUndefined();
      expect(response.data).toEqual({ reportPage: true });
    }
    expect(await reportsOf(api, profile.username)).toBe(allowed.length);
  });

  it('refuse signUp and login from a page on another site: no account is made, no session given', async () => {
    const api = apiOf();
    const email = uniqueEmail('cross-site');
    const signUp = await api.graphql(
      SIGN_UP,
      { input: { email, password: GOOD_PASSWORD, first: 'Lydia', platform: 'web' } },
      { headers: { origin: STRANGER } },
    );
    expect(signUp.errors?.[0]?.extensions).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
    expect(await api.dataSource.getRepository(AuthUserRecord).countBy({ email })).toBe(0);

    const own = await api.graphql(SIGN_UP, {
      input: { email, password: GOOD_PASSWORD, first: 'Lydia', platform: 'web' },
    });
    expect(own.errors).toBeUndefined();
    const login = await api.graphql(
      LOGIN,
      { input: { email, password: GOOD_PASSWORD } },
      { headers: { origin: STRANGER } },
    );
    expect(login.status).toBe(403);
    expect(login.errors?.[0]?.extensions).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
    expect(login.data).toBeUndefined();
  });

  it('still let any origin read the open queries, by GET and by POST', async () => {
    const api = apiOf();
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Priscilla' } });
    const query = `{ profile(username: "${profile.username}") { name } }`;
    const byPost = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: STRANGER, 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ query }),
    });
    const byGet = await fetch(`${api.url}/graphql?query=${encodeURIComponent(query)}`, {
      headers: { 'apollo-require-preflight': 'true', origin: STRANGER, 'sec-fetch-site': 'cross-site' },
    });
    for (const response of [byPost, byGet]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({ data: { profile: { name: 'Priscilla' } } });
    }
  });
});

describe('the identity service at /auth/v1', () => {
  const signUp = (headers: Record<string, string>, email: string) =>
    fetch(`${lean.url}/auth/v1/signup`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        apikey: lean.app.identity.embeddedKeys?.anonKey ?? '',
        ...headers,
      },
      body: JSON.stringify({ email, password: GOOD_PASSWORD }),
    });

  it('refuses sign-ups and sign-ins sent from a page on another site', async () => {
    const email = uniqueEmail('auth-cross-site');
    const refused: Record<string, string>[] = [{ origin: STRANGER }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of refused) {
      const response = await signUp(headers, email);
      expect(response.status).toBe(403);
      expect(response.headers.get('x-sb-error-code')).toBe('cross_site_request');
    }
    expect(await lean.dataSource.getRepository(AuthUserRecord).countBy({ email })).toBe(0);
    const token = await fetch(`${lean.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: STRANGER },
      body: JSON.stringify({ email, password: GOOD_PASSWORD }),
    });
    expect(token.status).toBe(403);
  });

  it('serves the site itself, CORS_ORIGINS and servers as before', async () => {
    const allowed: Record<string, string>[] = [{ origin: new URL(lean.url).origin }, { origin: FRIEND }, {}];
    for (const headers of allowed) {
      const email = uniqueEmail('auth-own-site');
      const response = await signUp(headers, email);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(await lean.dataSource.getRepository(AuthUserRecord).countBy({ email })).toBe(1);
    }
  });
});
