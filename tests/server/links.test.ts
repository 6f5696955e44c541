import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import type { TestApp } from '../support/app.js';
import type { SignedUpMember } from '../support/members.js';
import { firstError, signUpMember } from '../support/members.js';
import type { Link } from '../support/links.js';
import { ADD_LINK, addLink, LINK_FIELDS, startPagesApp } from '../support/links.js';

let api: TestApp;
beforeAll(async () => {
  api = await startPagesApp();
});
afterAll(async () => {
  await api.close();
});

const add = (member: SignedUpMember, input: Record<string, unknown>) => addLink(api, member, input);

const UPDATE = `mutation ($id: ID!, $input: UpdateLinkInput!) { updateLink(id: $id, input: $input) { ${LINK_FIELDS} } }`;
const REMOVE = `mutation ($id: ID!) { removeLink(id: $id) { id } }`;
const REORDER = `mutation ($ids: [ID!]!) { reorderLinks(ids: $ids) { id title } }`;
const OWN = `{ me { profile { links { ${LINK_FIELDS} } } } }`;
const PUBLIC = `query ($username: String!) { profile(username: $username) { links { id title url icon } } }`;

async function publicLinks(member: SignedUpMember): Promise<{ id: string; title: string }[] | undefined> {
  const response = await api.graphql<{ profile: { links: Link[] } | null }>(PUBLIC, {
    username: member.member.profile.username,
  });
  return response.data?.profile?.links;
}

describe('links', () => {
  it('are added, shown to visitors in order with their icons, and normalised', async () => {
    const member = await signUpMember(api);
    const youtube = await add(member, { title: '  My   sermons ', url: 'https://www.YouTube.com/@grace' });
    const church = await add(member, { title: 'Our church', url: 'example.org/visit' });
    const mail = await add(member, { title: 'Write to me', url: 'mailto:grace@example.com' });
    expect(youtube).toMatchObject({ title: 'My sermons', url: 'https://www.youtube.com/@grace', icon: 'youtube' });
    expect(church).toMatchObject({ url: 'https://example.org/visit', icon: 'link', hidden: false });
    expect(mail.icon).toBe('email');
    expect(await publicLinks(member)).toEqual([
      { id: youtube.id, title: 'My sermons', url: 'https://www.youtube.com/@grace', icon: 'youtube' },
      { id: church.id, title: 'Our church', url: 'https://example.org/visit', icon: 'link' },
      { id: mail.id, title: 'Write to me', url: 'mailto:grace@example.com', icon: 'email' },
    ]);
  });

  it.each([
    ['javascript:alert(1)', 'input.url'],
    ['JavaScript:alert(document.cookie)', 'input.url'],
    ['data:text/html,<script>alert(1)</script>', 'input.url'],
    ['ftp://example.org/file', 'input.url'],
    ['https://user:secret@example.org/', 'input.url'],
    ['not a url at all', 'input.url'],
    [`https://example.org/${'a'.repeat(2100)}`, 'input.url'],
  ])('refuses the address %s with BAD_USER_INPUT on its field, and adds nothing', async (url, field) => {
    const member = await signUpMember(api);
    const response = await api.graphql(
      ADD_LINK,
      { input: { title: 'Bad', url } },
      { token: member.session.accessToken },
    );
    expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(await api.dataSource.getRepository(LinkRecord).countBy({ uid: member.member.user.uid })).toBe(0);
  });

  it('needs a title of 1 to 80 characters', async () => {
    const member = await signUpMember(api);
    const token = member.session.accessToken;
    for (const title of ['   ', 'x'.repeat(81)]) {
      const response = await api.graphql(ADD_LINK, { input: { title, url: 'https://example.org' } }, { token });
      expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.title' });
    }
    expect((await add(member, { title: '🙏'.repeat(80), url: 'https://example.org' })).title).toHaveLength(160);
  });

  it('stops at 50 links a page with LIMIT_REACHED', async () => {
    const member = await signUpMember(api);
    const now = new Date();
    await api.dataSource.getRepository(LinkRecord).insert(
      Array.from({ length: 50 }, (_unused, position) => ({
        id: crypto.randomUUID(),
        uid: member.member.user.uid,
        title: `Link ${position}`,
        url: 'https://example.org/',
        position,
        hidden: false,
        createdAt: now,
      })),
    );
    const response = await api.graphql(
      ADD_LINK,
      { input: { title: 'One more', url: 'https://example.org/more' } },
      { token: member.session.accessToken },
    );
    expect(firstError(response)).toMatchObject({ code: 'LIMIT_REACHED', limit: 50 });
    expect(await api.dataSource.getRepository(LinkRecord).countBy({ uid: member.member.user.uid })).toBe(50);
  });

  it('are edited, hidden from visitors (not from their owner), reordered and removed', async () => {
    const member = await signUpMember(api);
    const token = member.session.accessToken;
    const [a, b, c] = [
      await add(member, { title: 'A', url: 'https://a.example.org' }),
      await add(member, { title: 'B', url: 'https://b.example.org' }),
      await add(member, { title: 'C', url: 'https://c.example.org' }),
    ];
    const edited = await api.graphql<{ updateLink: Link }>(
      UPDATE,
      { id: b.id, input: { title: 'Bee', url: 'https://open.spotify.com/show/1', hidden: true } },
      { token },
    );
    expect(edited.data?.updateLink).toMatchObject({ title: 'Bee', icon: 'spotify', hidden: true });
    expect((await publicLinks(member))?.map((link) => link.title)).toEqual(['A', 'C']);
    const own = await api.graphql<{ me: { profile: { links: Link[] } } }>(OWN, {}, { token });
    expect(own.data?.me.profile.links.map((link) => link.title)).toEqual(['A', 'Bee', 'C']);

    const reordered = await api.graphql<{ reorderLinks: Link[] }>(REORDER, { ids: [c.id, a.id, b.id] }, { token });
    expect(reordered.data?.reorderLinks.map((link) => link.title)).toEqual(['C', 'A', 'Bee']);
    expect((await publicLinks(member))?.map((link) => link.title)).toEqual(['C', 'A']);

    for (const ids of [
      [c.id, a.id],
      [c.id, a.id, b.id, b.id],
      [c.id, a.id, crypto.randomUUID()],
    ]) {
      const refused = await api.graphql(REORDER, { ids }, { token });
      expect(firstError(refused)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'ids' });
    }

    const removed = await api.graphql<{ removeLink: { id: string }[] }>(REMOVE, { id: a.id }, { token });
    expect(removed.data?.removeLink.map((link) => link.id)).toEqual([c.id, b.id]);
    expect((await publicLinks(member))?.map((link) => link.title)).toEqual(['C']);
  });

  it("are their owner's alone: another member can neither change nor remove them", async () => {
    const owner = await signUpMember(api);
    const other = await signUpMember(api);
    const link = await add(owner, { title: 'Mine', url: 'https://example.org' });
    const token = other.session.accessToken;
    const changed = await api.graphql(UPDATE, { id: link.id, input: { title: 'Yours' } }, { token });
    expect(firstError(changed)).toMatchObject({ code: 'NOT_FOUND' });
    expect(firstError(await api.graphql(REMOVE, { id: link.id }, { token }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(firstError(await api.graphql(REORDER, { ids: [link.id] }, { token }))).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    expect(
      firstError(await api.graphql(ADD_LINK, { input: { title: 'x', url: 'https://example.org' } })),
    ).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    expect((await publicLinks(owner))?.map((each) => each.title)).toEqual(['Mine']);
  });
});

describe('bio', () => {
  it('is saved trimmed, shown to visitors, and refused past 160 characters', async () => {
    const member = await signUpMember(api);
    const token = member.session.accessToken;
    const UPDATE_BIO = 'mutation ($bio: String!) { updateProfile(input: { bio: $bio }) { bio } }';
    const saved = await api.graphql(UPDATE_BIO, { bio: '  Pastor’s wife,\r\n\r\n\r\nmother of three.  ' }, { token });
    expect(saved.data).toEqual({ updateProfile: { bio: 'Pastor’s wife,\n\nmother of three.' } });
    const visitors = await api.graphql('query ($u: String!) { profile(username: $u) { bio } }', {
      u: member.member.profile.username,
    });
    expect(visitors.data).toEqual({ profile: { bio: 'Pastor’s wife,\n\nmother of three.' } });
    const tooLong = await api.graphql(UPDATE_BIO, { bio: 'x'.repeat(161) }, { token });
    expect(firstError(tooLong)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.bio' });
    const page = await (await fetch(`${api.url}/@${member.member.profile.username}`)).text();
    expect(page).toContain('Pastor’s wife,');
  });
});

describe('link icons', () => {
  it('are served as SVG for every icon a link can show, and unknown ones are not found', async () => {
    for (const icon of ['youtube', 'applepodcasts', 'x', 'email', 'phone', 'link']) {
      const response = await fetch(`${api.url}/icons/${icon}.svg`);
      expect(response.status, icon).toBe(200);
      expect(response.headers.get('content-type')).toContain('image/svg+xml');
      expect(await response.text()).toMatch(/^<svg[^>]*viewBox="0 0 24 24"[\s\S]*<path d="M/);
    }
    // Other sites show them beside the links they read from the API.
    expect((await fetch(`${api.url}/icons/youtube.svg`)).headers.get('cross-origin-resource-policy')).toBe(
      'cross-origin',
    );
    expect((await fetch(`${api.url}/icons/unknown.svg`)).status).toBe(404);
    expect((await fetch(`${api.url}/icons/..%2Fpackage.json`)).status).toBe(404);
  });
});
