import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkRecord, PageViewDayRecord } from '../../server/src/links/link.entity.js';
import { PhotoRecord } from '../../server/src/photos/photo.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { firstError, signUpMember } from '../support/members.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

const MY_DATA = '{ myData }';

async function myData(token: string): Promise<Record<string, unknown>> {
  const response = await api.graphql<{ myData: string }>(MY_DATA, {}, { token });
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return JSON.parse(response.data?.myData ?? 'null') as Record<string, unknown>;
}

describe('downloading my data', () => {
  it('holds the account, profile, links, page stats, billing state and sessions', async () => {
    const member = await signUpMember(api, { first: 'Priscilla' });
    const { uid } = member.member.user;
    await api.dataSource.getRepository(LinkRecord).insert({
      id: crypto.randomUUID(),
      uid,
      title: 'Our church',
      url: 'https://example.org/',
      position: 0,
      hidden: true,
      createdAt: new Date(),
    });
    await api.dataSource.getRepository(PageViewDayRecord).insert({ uid, day: '2026-11-20', views: 7 });

    const data = await myData(member.session.accessToken);
    expect(data).toMatchObject({
      format: 1,
      account: { id: uid, email: member.email, firstName: 'Priscilla', plan: 'free' },
      identity: { email: member.email },
      moderation: null,
      profile: { username: member.member.profile.username, isPublic: true },
      links: [{ title: 'Our church', url: 'https://example.org/', hidden: true }],
      pageStats: { viewsByDay: [{ day: '2026-11-20', views: 7 }], clicksByDay: [] },
      billing: { stripeCustomer: null, subscriptions: [], grantedPlusSince: null },
      operatorActions: [],
    });
    const sessions = data.sessions as { id: string; createdAt: string }[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ id: expect.any(String), createdAt: expect.any(String) });
    // Nothing secret about the account leaves with it: no password hash, no token of any kind.
    expect(JSON.stringify(data)).not.toMatch(/password|hash|token|secret|\$argon2/i);
  });

  it('holds saved verses, the morning mail choice, the translation and the photo', async () => {
    const member = await signUpMember(api, { first: 'Lydia' });
    const token = member.session.accessToken;
    const { uid } = member.member.user;
    for (const mutation of [
      'mutation { saveVerse(ref: "John 3:16") { savedAt } }',
      'mutation { subscribeVerseMail(input: { hour: 7, timeZone: "Europe/Oslo" }) { enabled } }',
      'mutation { updateProfile(input: { translation: WEB }) { translation } }',
    ]) {
      const response = await api.graphql(mutation, {}, { token });
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    }
    await api.dataSource
      .getRepository(PhotoRecord)
      .insert({ uid, version: 'v1', webp: Buffer.from('RIFF-webp').toString('base64'), updatedAt: new Date() });

    const data = await myData(token);
    expect(data).toMatchObject({
      profile: {
        translation: 'WEB',
        photo: { dataUrl: `data:image/webp;base64,${Buffer.from('RIFF-webp').toString('base64')}`, version: 'v1' },
      },
      savedVerses: [{ verseId: 'John.3.16' }],
      verseMail: { subscription: { hour: 7, timeZone: 'Europe/Oslo' }, sent: [] },
      identity: { twoFactor: [] },
    });
  });

  it("gives each member their own data only, and nobody's without signing in", async () => {
    const [first, second] = [await signUpMember(api), await signUpMember(api)];
    const data = await myData(second.session.accessToken);
    expect(data.account).toMatchObject({ id: second.member.user.uid });
    expect(JSON.stringify(data)).not.toContain(first.email);
    expect(firstError(await api.graphql(MY_DATA)).code).toBe('UNAUTHENTICATED');
  });
});
