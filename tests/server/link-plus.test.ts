import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { SignedUpMember } from '../support/members.js';
import { firstError, signUpMember } from '../support/members.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({ AUTH_RATE_LIMIT_OTP: '1000' });
});
afterAll(async () => {
  await api.close();
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const OWNER_FIELDS = 'id title hidden visibleFrom visibleUntil highlighted';
const ADD = `mutation ($input: LinkInput!) { addLink(input: $input) { ${OWNER_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateLinkInput!) { updateLink(id: $id, input: $input) { ${OWNER_FIELDS} } }`;
const UPDATE_PROFILE = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { timeZone } }';
const OWN = `{ me { profile { timeZone links { ${OWNER_FIELDS} } } } }`;
const PUBLIC = `query ($username: String!) { profile(username: $username) { links { ${OWNER_FIELDS} } } }`;

interface OwnLink {
  id: string;
  title: string;
  hidden: boolean;
  visibleFrom: string | null;
  visibleUntil: string | null;
  highlighted: boolean;
}

/** The wall clock in `timeZone`, `minutes` from now, as a schedule writes it (computed apart from the server's rule). */
function wallClock(timeZone: string, minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  return at.toLocaleString('sv-SE', { timeZone, hourCycle: 'h23' }).replace(' ', 'T').slice(0, 16);
}

async function add(member: SignedUpMember, title: string): Promise<OwnLink> {
  const response = await api.graphql<{ addLink: OwnLink }>(
    ADD,
    { input: { title, url: `https://example.org/${encodeURIComponent(title)}` } },
    { token: member.session.accessToken },
  );
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  const link = response.data?.addLink;
  if (!link) throw new Error('addLink answered no link');
  return link;
}

function update(member: SignedUpMember, id: string, input: Record<string, unknown>) {
  return api.graphql<{ updateLink: OwnLink }>(UPDATE, { id, input }, { token: member.session.accessToken });
}

async function updated(member: SignedUpMember, id: string, input: Record<string, unknown>): Promise<OwnLink> {
  const response = await update(member, id, input);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  const link = response.data?.updateLink;
  if (!link) throw new Error('updateLink answered no link');
  return link;
}

async function setTimeZone(member: SignedUpMember, timeZone: string): Promise<string | null | undefined> {
  const response = await api.graphql<{ updateProfile: { timeZone: string | null } }>(
    UPDATE_PROFILE,
    { input: { timeZone } },
    { token: member.session.accessToken },
  );
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data?.updateProfile.timeZone;
}

async function ownLinks(member: SignedUpMember): Promise<OwnLink[]> {
  const response = await api.graphql<{ me: { profile: { links: OwnLink[] } } }>(
    OWN,
    {},
    { token: member.session.accessToken },
  );
  return response.data?.me.profile.links ?? [];
}

async function publicLinks(member: SignedUpMember): Promise<OwnLink[]> {
  const response = await api.graphql<{ profile: { links: OwnLink[] } | null }>(PUBLIC, {
    username: member.member.profile.username,
  });
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data?.profile?.links ?? [];
}

async function followStatus(id: string): Promise<number> {
  const response = await fetch(`${api.url}/l/${id}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
  return response.status;
}

/** Plus through billing's own operator grant, as `npm run plus -- grant` gives it. */
async function startPlus(member: SignedUpMember): Promise<void> {
  await api.app.billing.grant(member.email);
}

async function endPlus(member: SignedUpMember): Promise<void> {
  await api.app.billing.revoke(member.email);
}

async function plusMember(): Promise<SignedUpMember> {
  const member = await signUpMember(api);
  await startPlus(member);
  return member;
}

describe('scheduled links (Plus)', () => {
  it('are shown to visitors and followed only inside their window, read in the page’s time zone', async () => {
    const member = await plusMember();
    expect(await setTimeZone(member, 'pacific/kiritimati')).toBe('Pacific/Kiritimati');
    const now = await add(member, 'Now');
    const later = await add(member, 'Later');
    const over = await add(member, 'Over');
    const always = await add(member, 'Always');
    await updated(member, now.id, {
      visibleFrom: wallClock('Pacific/Kiritimati', -60),
      visibleUntil: wallClock('Pacific/Kiritimati', 60),
    });
    await updated(member, later.id, { visibleFrom: wallClock('Pacific/Kiritimati', 120) });
    await updated(member, over.id, { visibleUntil: wallClock('Pacific/Kiritimati', -1) });

    expect((await publicLinks(member)).map((link) => link.title)).toEqual(['Now', 'Always']);
    expect(await followStatus(now.id)).toBe(302);
    expect(await followStatus(always.id)).toBe(302);
    expect(await followStatus(later.id)).toBe(404);
    expect(await followStatus(over.id)).toBe(404);

    // Fourteen hours behind Kiritimati, the same wall-clock times are hours away: "Now" has not
    // begun, and "Over" has not ended.
    await setTimeZone(member, 'UTC');
    expect((await publicLinks(member)).map((link) => link.title)).toEqual(['Over', 'Always']);
    expect(await followStatus(now.id)).toBe(404);
    expect(await followStatus(over.id)).toBe(302);
    expect(await followStatus(later.id)).toBe(404);
  });

  it('show their schedule to the owner only, and clear it with empty strings', async () => {
    const member = await plusMember();
    const link = await add(member, 'Advent');
    const scheduled = await updated(member, link.id, {
      visibleFrom: '2000-12-01T00:00',
      visibleUntil: '2999-12-25T23:59:00',
    });
    expect(scheduled).toMatchObject({ visibleFrom: '2000-12-01T00:00', visibleUntil: '2999-12-25T23:59' });
    expect(await ownLinks(member)).toMatchObject([
      { visibleFrom: '2000-12-01T00:00', visibleUntil: '2999-12-25T23:59' },
    ]);
    expect(await publicLinks(member)).toMatchObject([{ id: link.id, visibleFrom: null, visibleUntil: null }]);

    const moved = await updated(member, link.id, { visibleFrom: '' });
    expect(moved).toMatchObject({ visibleFrom: null, visibleUntil: '2999-12-25T23:59' });
    expect(await updated(member, link.id, { visibleUntil: '' })).toMatchObject({
      visibleFrom: null,
      visibleUntil: null,
    });
  });

  it.each([
    [{ visibleFrom: '2026-12-25T00:00', visibleUntil: '2026-12-24T00:00' }, 'input.visibleUntil'],
    [{ visibleFrom: '2026-12-24T00:00', visibleUntil: '2026-12-24T00:00' }, 'input.visibleUntil'],
    [{ visibleFrom: 'Christmas' }, 'input.visibleFrom'],
    [{ visibleUntil: '2027-02-29T10:00' }, 'input.visibleUntil'],
  ])('refuses %j with BAD_USER_INPUT on %s and changes nothing', async (input, field) => {
    const member = await plusMember();
    const link = await add(member, 'Church');
    await updated(member, link.id, { visibleFrom: '2026-01-01T00:00' });
    const response = await update(member, link.id, { ...input, title: 'Changed' });
    expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(await ownLinks(member)).toMatchObject([
      { title: 'Church', visibleFrom: '2026-01-01T00:00', visibleUntil: null },
    ]);
  });

  it('refuses a time zone the world does not have', async () => {
    const member = await signUpMember(api);
    const response = await api.graphql(
      UPDATE_PROFILE,
      { input: { timeZone: 'Mars/Olympus_Mons' } },
      { token: member.session.accessToken },
    );
    expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.timeZone' });
    const own = await api.graphql<{ me: { profile: { timeZone: string | null } } }>(
      OWN,
      {},
      { token: member.session.accessToken },
    );
    expect(own.data?.me.profile.timeZone).toBeNull();
  });
});

describe('the highlighted link (Plus)', () => {
  it('is one per page: highlighting another takes it from the first', async () => {
    const member = await plusMember();
    const first = await add(member, 'First');
    const second = await add(member, 'Second');
    await updated(member, first.id, { highlighted: true });
    expect((await publicLinks(member)).map((link) => link.highlighted)).toEqual([true, false]);

    expect(await updated(member, second.id, { highlighted: true })).toMatchObject({ highlighted: true });
    expect((await ownLinks(member)).map((link) => link.highlighted)).toEqual([false, true]);
    expect((await publicLinks(member)).map((link) => link.highlighted)).toEqual([false, true]);
    const rows = await api.dataSource
      .getRepository(LinkRecord)
      .findBy({ uid: member.member.user.uid, highlighted: true });
    expect(rows.map((row) => row.id)).toEqual([second.id]);

    await updated(member, second.id, { highlighted: false });
    expect((await publicLinks(member)).map((link) => link.highlighted)).toEqual([false, false]);
  });

  it('stays on one link when two are highlighted at once', async () => {
    const member = await plusMember();
    const links = await Promise.all(['A', 'B', 'C', 'D'].map((title) => add(member, title)));
    await Promise.all(links.map((link) => update(member, link.id, { highlighted: true })));
    expect(
      await api.dataSource.getRepository(LinkRecord).countBy({ uid: member.member.user.uid, highlighted: true }),
    ).toBe(1);
  });
});

describe('Plus rules for links', () => {
  it('refuses a schedule or a highlight to a free member with PLUS_REQUIRED, changing nothing', async () => {
    const member = await signUpMember(api);
    const link = await add(member, 'Church');
    for (const input of [
      { visibleFrom: '2026-12-01T00:00' },
      { visibleUntil: '2026-12-01T00:00' },
      { highlighted: true },
    ]) {
      expect(firstError(await update(member, link.id, { ...input, title: 'Changed' }))).toMatchObject({
        code: 'PLUS_REQUIRED',
      });
    }
    expect(await ownLinks(member)).toMatchObject([
      { title: 'Church', visibleFrom: null, visibleUntil: null, highlighted: false },
    ]);
    // Clearing needs no Plus.
    expect(await updated(member, link.id, { visibleFrom: '', highlighted: false })).toMatchObject({ title: 'Church' });
  });

  it('stops applying schedules and highlights when Plus ends, keeps them, and applies them again when it returns', async () => {
    const member = await plusMember();
    const later = await add(member, 'Later');
    const star = await add(member, 'Star');
    const tomorrow = wallClock('UTC', 24 * 60);
    await updated(member, later.id, { visibleFrom: tomorrow });
    await updated(member, star.id, { highlighted: true });
    expect((await publicLinks(member)).map((link) => link.title)).toEqual(['Star']);
    expect(await followStatus(later.id)).toBe(404);

    await endPlus(member);
    expect(await publicLinks(member)).toMatchObject([
      { title: 'Later', highlighted: false },
      { title: 'Star', highlighted: false },
    ]);
    expect(await followStatus(later.id)).toBe(302);
    expect(await ownLinks(member)).toMatchObject([
      { title: 'Later', visibleFrom: tomorrow },
      { title: 'Star', highlighted: true },
    ]);
    // A free member may still change the rest of a link that keeps Plus settings.
    expect(await updated(member, later.id, { title: 'Later on' })).toMatchObject({ title: 'Later on' });

    await startPlus(member);
    expect(await publicLinks(member)).toMatchObject([{ title: 'Star', highlighted: true }]);
    expect(await followStatus(later.id)).toBe(404);
  });
});
