import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { ReportRecord } from '../../server/src/moderation/moderation.entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';
import { pngImage } from '../support/images.js';
import { firstError, signUpMember } from '../support/members.js';

const distDir = mkdtempSync(path.join(tmpdir(), 'lampstand-dist-'));
copyFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), path.join(distDir, 'index.html'));
mkdirSync(path.join(distDir, 'assets'));

let api: TestApp;
beforeAll(async () => {
  // Each visitor's address comes from X-Forwarded-For, so that tests do not share one rate limit.
  api = await startTestApp({ WEB_DIST_DIR: distDir, TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await api.close();
  rmSync(distDir, { recursive: true, force: true });
});

const PROFILE = 'query ($username: String!) { profile(username: $username) { username } }';
const HOLD = '{ me { profile { isActive isPublic hold { reason since bannedUntil } } } }';
const UPDATE = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { isActive isPublic } }';
const REPORT = 'mutation ($input: ReportPageInput!) { reportPage(input: $input) }';

let visitors = 0;
/** A visitor's address no other test uses. */
const newVisitor = (): string => `203.0.113.${String(++visitors)}`;

function report(input: Record<string, unknown>, visitor = newVisitor()) {
  return api.graphql(REPORT, { input }, { headers: { 'x-forwarded-for': visitor } });
}

async function addLink(uid: string): Promise<string> {
  const id = crypto.randomUUID();
  await api.dataSource.getRepository(LinkRecord).insert({
    id,
    uid,
    title: 'My site',
    url: 'https://example.org/',
    position: 0,
    hidden: false,
    createdAt: new Date(),
  });
  return id;
}

/** What a visitor gets at each public address of a page: the query, the page and a link. */
async function publicFaces(username: string, linkId: string) {
  const query = await api.graphql<{ profile: unknown }>(PROFILE, { username });
  const page = await fetch(`${api.url}/@${username}`);
  const bare = await fetch(`${api.url}/${username}`, { redirect: 'manual' });
  const link = await fetch(`${api.url}/l/${linkId}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0' } });
  return { profile: query.data?.profile ?? null, page: page.status, bare: bare.status, link: link.status };
}

/** What a visitor gets at the page's share images and photo. */
async function sharedFaces(username: string, photoUrl: string) {
  const status = async (address: string) => (await fetch(address)).status;
  return {
    card: await status(`${api.url}/share/${username}/card.png`),
    qr: await status(`${api.url}/share/${username}/qr.svg`),
    photo: await status(photoUrl),
  };
}

async function uploadPhoto(token: string): Promise<string> {
  const response = await fetch(`${api.url}/api/photo`, {
    method: 'PUT',
    headers: { 'content-type': 'image/png', authorization: `Bearer ${token}` },
    body: new Uint8Array(await pngImage(64, 64)),
  });
  expect(response.status).toBe(200);
  const { photoUrl } = (await response.json()) as { photoUrl: string };
  return new URL(photoUrl, api.url).toString();
}

describe('a page an operator hid', () => {
  it('answers 404 at every public address, and its owner sees why and cannot undo it', async () => {
    const member = await signUpMember(api);
    const { uid } = member.member.user;
    const { username } = member.member.profile;
    const linkId = await addLink(uid);
    const photoUrl = await uploadPhoto(member.session.accessToken);
    expect(await publicFaces(username, linkId)).toEqual({ profile: { username }, page: 200, bare: 301, link: 302 });
    expect(await sharedFaces(username, photoUrl)).toEqual({ card: 200, qr: 200, photo: 200 });

    await api.dataSource
      .getRepository(UserRecord)
      .update({ uid }, { hiddenReason: 'Links to a phishing site.', hiddenAt: new Date() });

    expect(await publicFaces(username, linkId)).toEqual({ profile: null, page: 404, bare: 404, link: 404 });
    expect(await sharedFaces(username, photoUrl)).toEqual({ card: 404, qr: 404, photo: 404 });
    const token = member.session.accessToken;
    const own = await api.graphql<{ me: { profile: { hold: { reason: string; since: string | null } } } }>(
      HOLD,
      {},
      { token },
    );
    expect(own.data?.me.profile.hold).toMatchObject({ reason: 'Links to a phishing site.', bannedUntil: null });
    expect(own.data?.me.profile.hold.since).toEqual(expect.any(String));

    const toggled = await api.graphql(UPDATE, { input: { isActive: true, isPublic: true } }, { token });
    expect(toggled.errors).toBeUndefined();
    expect(await publicFaces(username, linkId)).toMatchObject({ profile: null, page: 404, link: 404 });
  });

  it('shows no hold to a member whose page nobody hid', async () => {
    const member = await signUpMember(api);
    const own = await api.graphql<{ me: { profile: { hold: unknown } } }>(
      HOLD,
      {},
      { token: member.session.accessToken },
    );
    expect(own.data?.me.profile.hold).toBeNull();
  });

  it('offers the hold to nobody but the owner', async () => {
    const response = await api.graphql('{ profile(username: "x") { hold { reason } } }');
    expect(response.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe("a banned member's page", () => {
  it('is hidden while the ban lasts, and back once it has ended', async () => {
    const { user, profile } = await insertMember(api.dataSource);
    const linkId = await addLink(user.uid);
    const users = api.dataSource.getRepository(UserRecord);
    await users.update({ uid: user.uid }, { bannedUntil: new Date(Date.now() + 3_600_000) });
    expect(await publicFaces(profile.username, linkId)).toEqual({ profile: null, page: 404, bare: 404, link: 404 });
    await users.update({ uid: user.uid }, { bannedUntil: new Date(Date.now() - 1000) });
    expect((await publicFaces(profile.username, linkId)).page).toBe(200);
  });
});

describe('reporting a page', () => {
  const reportsOf = (uid: string) => api.dataSource.getRepository(ReportRecord).findBy({ uid });

  it('queues a report from a visitor without an account', async () => {
    const { user, profile } = await insertMember(api.dataSource);
    const response = await report({
      username: profile.username.toUpperCase(),
      reason: 'scam',
      note: '  Asks for card numbers.  ',
    });
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ reportPage: true });
    expect(await reportsOf(user.uid)).toEqual([
      expect.objectContaining({
        username: profile.username,
        reason: 'scam',
        note: 'Asks for card numbers.',
        resolvedAt: null,
      }),
    ]);
  });

  it.each([
    [{ reason: 'rude' }, 'BAD_USER_INPUT'],
    [{ reason: 'spam', note: 'x'.repeat(501) }, 'BAD_USER_INPUT'],
    [{ reason: 'spam', note: 'bell\u0007' }, 'BAD_USER_INPUT'],
    [{ reason: 'spam', note: 42 }, 'BAD_USER_INPUT'],
  ])('refuses %j with %s and queues nothing', async (input, code) => {
    const { user, profile } = await insertMember(api.dataSource);
    const response = await report({ username: profile.username, ...input });
    expect(firstError(response).code).toBe(code);
    expect(await reportsOf(user.uid)).toEqual([]);
  });

  it('takes a note of 500 characters, emoji counted as one', async () => {
    const { user, profile } = await insertMember(api.dataSource);
    const note = '🙏'.repeat(500);
    const response = await report({ username: profile.username, reason: 'other', note });
    expect(response.errors).toBeUndefined();
    expect((await reportsOf(user.uid))[0]?.note).toBe(note);
  });

  it('answers NOT_FOUND for a page visitors cannot see', async () => {
    const { user, profile } = await insertMember(api.dataSource, { profile: { isPublic: false } });
    const response = await report({ username: profile.username, reason: 'spam' });
    expect(firstError(response).code).toBe('NOT_FOUND');
    expect(await reportsOf(user.uid)).toEqual([]);
  });

  it('limits each address to a few reports an hour', async () => {
    const { user, profile } = await insertMember(api.dataSource);
    const visitor = newVisitor();
    const send = () => report({ username: profile.username, reason: 'spam' }, visitor);
    for (let sent = 0; sent < 5; sent++) expect((await send()).errors).toBeUndefined();
    const refused = await send();
    expect(firstError(refused).code).toBe('RATE_LIMITED');
    expect(await reportsOf(user.uid)).toHaveLength(5);
    // Another address is not held back by this one's reports.
    expect((await report({ username: profile.username, reason: 'spam' })).errors).toBeUndefined();
  });
});
