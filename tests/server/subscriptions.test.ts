// GraphQL subscriptions through a real graphql-ws client over WebSocket, on the started server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hidePage } from '../../server/src/operator/hide-page.js';
import type { TestApp } from '../support/app.js';
import { addLink, startPagesApp } from '../support/links.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';
import type { SubscriptionClient } from '../support/subscriptions.js';
import { actUntilHeard, subscriptionClient } from '../support/subscriptions.js';

const PLAN_CHANGED = 'subscription { planChanged { plan user { uid } } }';
const PAGE_ACTIVITY = 'subscription { pageActivity { kind linkId at } }';
const PROFILE_CHANGED =
  'subscription ($username: String!) { profileChanged(username: $username) { username name bio } }';
const UPDATE_PROFILE = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { username } }';
const LOGOUT = 'mutation { logout(scope: local) }';
const DELETE_ACCOUNT = 'mutation ($password: String!) { deleteAccount(password: $password) }';
const PER_CONNECTION = 2;
const PER_MEMBER = 2;

let api: TestApp;
const clients: SubscriptionClient[] = [];
const connect = (token?: string): SubscriptionClient => {
  const client = subscriptionClient(api.url, token);
  clients.push(client);
  return client;
};

beforeAll(async () => {
  api = await startPagesApp({
    SUBSCRIPTIONS_PER_CONNECTION: String(PER_CONNECTION),
    SUBSCRIPTION_CONNECTIONS_PER_MEMBER: String(PER_MEMBER),
  });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await api.close();
});

/** A visitor of its own each time: the proxy header names the address, and each visitor counts once a day. */
const visitor = (attempt: number): Record<string, string> => ({
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'x-forwarded-for': `198.51.100.${attempt + 1}`,
});

describe('subscriptions over WebSocket', () => {
  it('sends planChanged with the new plan when an operator grants Plus', async () => {
    const member = await signUpMember(api);
    const heard = connect(member.session.accessToken).subscribe<{
      planChanged: { plan: string; user: { uid: string } };
    }>(PLAN_CHANGED);
    // Granting again changes nothing, but still announces the member's plan.
    await actUntilHeard(heard, () => api.app.billing.grant(member.email));
    expect(heard.results[0]?.errors).toBeUndefined();
    expect(heard.results[0]?.data?.planChanged).toEqual({ plan: 'plus', user: { uid: member.member.user.uid } });
  });

  it("sends pageActivity for counted views and clicks of the member's own page, and none of another's", async () => {
    const member = await signUpMember(api);
    const other = await signUpMember(api);
    const link = await addLink(api, member, { title: 'Church', url: 'https://example.org/church' });
    const client = connect(member.session.accessToken);
    const heard = client.subscribe<{ pageActivity: { kind: string; linkId: string | null; at: string } }>(
      PAGE_ACTIVITY,
    );
    // Another member's page being viewed is not this member's activity.
    await fetch(`${api.url}/@${other.member.profile.username}`, { headers: visitor(200) });
    await actUntilHeard(heard, (attempt) =>
      fetch(`${api.url}/@${member.member.profile.username}`, { headers: visitor(attempt) }),
    );
    expect(heard.results[0]?.data?.pageActivity).toMatchObject({ kind: 'view', linkId: null });
    const before = heard.results.length;
    await fetch(`${api.url}/l/${link.id}`, { redirect: 'manual', headers: visitor(201) });
    while (!heard.results.slice(before).some((result) => result.data?.pageActivity.kind === 'click')) {
      expect(await heard.next()).toBe(true);
    }
    const clicks = heard.results.slice(before).filter((result) => result.data?.pageActivity.kind === 'click');
    expect(clicks[0]?.data?.pageActivity.linkId).toBe(link.id);
    expect(new Date(clicks[0]?.data?.pageActivity.at ?? '').getTime()).not.toBeNaN();
  });

  it("sends a page's public fields when the member edits them, and ends when the page is hidden", async () => {
    const member = await signUpMember(api);
    const heard = connect().subscribe<{ profileChanged: Record<string, unknown> }>(PROFILE_CHANGED, {
      username: member.member.profile.username.toUpperCase(),
    });
    const edit = (input: Record<string, unknown>) =>
      api.graphql(UPDATE_PROFILE, { input }, { token: member.session.accessToken });
    await actUntilHeard(heard, (attempt) => edit({ bio: `Bio ${attempt}` }));
    const sent = heard.results[0]?.data?.profileChanged;
    expect(heard.errors).toEqual([]);
    expect(sent?.username).toBe(member.member.profile.username);
    expect(String(sent?.bio)).toMatch(/^Bio \d+$/);
    await edit({ isPublic: false });
    while (!heard.completed) expect(await heard.next()).toBe(true);
    expect(heard.results.every((result) => result.errors === undefined)).toBe(true);
  });

  it.each([
    [
      'an operator hides the page',
      (api: TestApp, member: SignedUpMember) =>
        hidePage(
          { deps: api.app.operator, operator: 'ada', origin: { osUser: 'test', host: 'test' } },
          member.member.user.uid,
          'Impersonates a pastor.',
        ),
    ],
    [
      'the member deletes the account',
      (api: TestApp, member: SignedUpMember) =>
        api.graphql(DELETE_ACCOUNT, { password: member.password }, { token: member.session.accessToken }),
    ],
  ])("ends a page's profileChanged quietly when %s", async (_case, end) => {
    const member = await signUpMember(api);
    const heard = connect().subscribe<{ profileChanged: Record<string, unknown> }>(PROFILE_CHANGED, {
      username: member.member.profile.username,
    });
    // Listening once an edit is heard.
    await actUntilHeard(heard, (attempt) =>
      api.graphql(UPDATE_PROFILE, { input: { bio: `Bio ${attempt}` } }, { token: member.session.accessToken }),
    );
    await end(api, member);
    while (!heard.completed) expect(await heard.next()).toBe(true);
    expect(heard.errors).toEqual([]);
    expect(heard.results.every((result) => result.errors === undefined)).toBe(true);
  });

  it('refuses private fields without a token, and closes a connection whose token is refused', async () => {
    const anonymous = connect().subscribe(PAGE_ACTIVITY);
    while (!anonymous.completed && anonymous.errors.length === 0) expect(await anonymous.next()).toBe(true);
    const refusal = anonymous.results[0]?.errors?.[0] ?? (anonymous.errors[0] as { extensions?: unknown }[])[0];
    expect(refusal?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });

    const forged = connect('not-a-token');
    forged.subscribe(PAGE_ACTIVITY);
    expect(await forged.closed()).toBe(4401);
  });

  it('closes the connection with 4401 when its session ends (logout)', async () => {
    const member = await signUpMember(api);
    const client = connect(member.session.accessToken);
    const heard = client.subscribe(PLAN_CHANGED);
    // The connection is open and signed in once an event arrives.
    await actUntilHeard(heard, () => api.app.billing.grant(member.email));
    await api.graphql(LOGOUT, {}, { token: member.session.accessToken });
    expect(await client.closed()).toBe(4401);
  });

  it('refuses a subscription past the per-connection limit, and a connection past the per-member limit', async () => {
    const member = await signUpMember(api);
    const client = connect(member.session.accessToken);
    const open = Array.from({ length: PER_CONNECTION }, () => client.subscribe(PLAN_CHANGED));
    const extra = client.subscribe(PLAN_CHANGED);
    while (extra.errors.length === 0) expect(await extra.next()).toBe(true);
    expect((extra.errors[0] as { extensions?: { code?: string } }[])[0]?.extensions?.code).toBe('LIMIT_REACHED');
    // The ones within the limit still hear events.
    await actUntilHeard(open[0] ?? extra, () => api.app.billing.grant(member.email));

    const second = connect(member.session.accessToken).subscribe(PLAN_CHANGED);
    await actUntilHeard(second, () => api.app.billing.grant(member.email));
    const third = connect(member.session.accessToken);
    third.subscribe(PLAN_CHANGED);
    expect(await third.closed()).toBe(4029);
  });
});
