import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/src/config.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';
import { GOOD_PASSWORD, identityKeys } from '../support/identity.js';
import { signUpMember } from '../support/members.js';

// Two instances: the lean executor answers public reads on one, Apollo alone on the other; both must
// send the same caching and rate-limit headers. A low sign-in limit makes the identity service refuse soon.
const LIMITS = { AUTH_RATE_LIMIT_TOKEN: '2', AUTH_RATE_LIMIT_TOKEN_BURST: '2' };
let lean: TestApp;
let apollo: TestApp;
beforeAll(async () => {
  [lean, apollo] = await Promise.all([startTestApp(LIMITS), startTestApp({ ...LIMITS, GRAPHQL_LEAN_PUBLIC: 'false' })]);
});
afterAll(async () => {
  await Promise.all([lean.close(), apollo.close()]);
});

const PROFILE = 'query Page($username: String!) { profile(username: $username) { name } }';

function getUrl(api: TestApp, query: string, variables: Record<string, unknown>): string {
  const search = new URLSearchParams({ query, variables: JSON.stringify(variables) });
  return `${api.url}/graphql?${search.toString()}`;
}

describe.each([
  ['the lean executor', () => lean],
  ['Apollo', () => apollo],
])('a public GET answered by %s', (_name, api) => {
  it('is cacheable with a strong ETag, answers 304 to it, and changes tag when the answer does', async () => {
    const { profile } = await insertMember(api().dataSource, { profile: { name: 'Tabitha' } });
    const url = getUrl(api(), PROFILE, { username: profile.username });
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ data: { profile: { name: 'Tabitha' } } });
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(first.headers.get('vary')).toMatch(/accept/i);

    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    await api().dataSource.getRepository(ProfileRecord).update({ uid: profile.uid }, { name: 'Dorcas' });
    const changed = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ data: { profile: { name: 'Dorcas' } } });
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('is private to a signed-in caller, and errors and POSTs are kept nowhere', async () => {
    const member = await signUpMember(api());
    const withToken = await fetch(getUrl(api(), '{ me { user { uid } } }', {}), {
      headers: { authorization: `Bearer ${member.session.accessToken}`, 'apollo-require-preflight': '1' },
    });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('cache-control')).toBe('private, no-store');
    expect(withToken.headers.get('etag')).toBeNull();

    const failed = await fetch(getUrl(api(), '{ verseOfTheDay(timeZone: "Mars/Olympus") { ref } }', {}));
    expect(((await failed.json()) as { errors?: unknown[] }).errors).toBeDefined();
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(failed.headers.get('etag')).toBeNull();

    const posted = await fetch(`${api().url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(posted.headers.get('cache-control')).toBe('no-store');
  });

  it('is readable from another origin without a preflight header, while a member field is not answered', async () => {
    const { profile } = await insertMember(api().dataSource, { profile: { name: 'Lois' } });
    const stranger = { origin: 'https://church.example', 'sec-fetch-site': 'cross-site' };
    const open = await fetch(getUrl(api(), PROFILE, { username: profile.username }), { headers: stranger });
    expect(open.status).toBe(200);
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    // The page may read the tag to revalidate, and when to retry.
    const exposed = (open.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['etag', 'retry-after', 'ratelimit-reset', 'x-request-id']));
    expect(await open.json()).toEqual({ data: { profile: { name: 'Lois' } } });
    const members = await fetch(getUrl(api(), '{ savedVerses { savedAt } }', {}), { headers: stranger });
    expect(members.status).toBe(400);
    expect(await members.text()).toMatch(/Cross-Site Request Forgery/i);
  });

  it('RATE_LIMITED carries Retry-After, RateLimit-* headers and extensions.retryAfter, with HTTP 200', async () => {
    const { profile } = await insertMember(api().dataSource);
    const report = () =>
      api().graphql('mutation ($input: ReportPageInput!) { reportPage(input: $input) }', {
        input: { username: profile.username, reason: 'spam' },
      });
    for (let sent = 0; sent < 5; sent++) expect((await report()).errors).toBeUndefined();
    const refused = await fetch(`${api().url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($input: ReportPageInput!) { reportPage(input: $input) }',
        variables: { input: { username: profile.username, reason: 'spam' } },
      }),
    });
    expect(refused.status).toBe(200);
    const body = (await refused.json()) as { errors: { extensions: { code: string; retryAfter: number } }[] };
    expect(body.errors[0]?.extensions.code).toBe('RATE_LIMITED');
    const retryAfter = body.errors[0]?.extensions.retryAfter ?? 0;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.get('retry-after')).toBe(String(retryAfter));
    expect(refused.headers.get('ratelimit-limit')).toBe('5');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toBe(String(retryAfter));
    expect(refused.headers.get('ratelimit-policy')).toBe('5;w=3600');
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('a sign-in the identity service refuses for its rate is RATE_LIMITED with Retry-After; /auth/v1 says 429', async () => {
    const member = await signUpMember(api());
    const login = () =>
      fetch(`${api().url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation ($input: LoginInput!) { login(input: $input) { __typename } }',
          variables: { input: { email: member.email, password: GOOD_PASSWORD } },
        }),
      });
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 4 && !refused; attempt++) {
      const answer = await login();
      const text = await answer.clone().text();
      if (text.includes('RATE_LIMITED')) refused = answer;
    }
    if (!refused) throw new Error('the sign-in limit was never reached');
    const body = (await refused.json()) as { errors: { extensions: { retryAfter: number } }[] };
    expect(body.errors[0]?.extensions.retryAfter).toBeGreaterThan(0);
    expect(refused.headers.get('retry-after')).toBe(String(body.errors[0]?.extensions.retryAfter));

    const direct = await fetch(`${api().url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: identityKeys(api()).anonKey },
      body: JSON.stringify({ email: member.email, password: GOOD_PASSWORD }),
    });
    expect(direct.status).toBe(429);
    const wait = Number(direct.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(300);
    expect(direct.headers.get('ratelimit-limit')).toBe('2');
    expect(direct.headers.get('ratelimit-policy')).toBe('2;w=300');
  });
});

describe('/schema.graphql', () => {
  it('serves the committed schema as text, cacheable, with an ETag and 304', async () => {
    const response = await fetch(`${lean.url}/schema.graphql`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe(readFileSync(path.join(projectRoot, 'schema.graphql'), 'utf8'));
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${lean.url}/schema.graphql`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});
