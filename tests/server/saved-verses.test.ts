import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { SavedVerseRecord } from '../../server/src/saved-verses/saved-verse.entity.js';
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

interface Saved {
  savedAt: string;
  verse: { id: string; ref: string; text: string; translation: string };
}

const SAVE = `mutation ($ref: String!) { saveVerse(ref: $ref) { savedAt verse { id ref text translation } } }`;
const LIST = `query ($translation: Translation) { savedVerses(translation: $translation) { savedAt verse { id ref translation } } }`;

describe('saved verses', () => {
  it('saves verses by any written reference and lists them newest first', async () => {
    const { session } = await signUpMember(api);
    const token = session.accessToken;
    const first = await api.graphql<{ saveVerse: Saved }>(SAVE, { ref: 'John 3:16' }, { token });
    expect(first.data?.saveVerse.verse).toMatchObject({ id: 'John.3.16', ref: 'John 3:16', translation: 'KJV' });
    await api.graphql(SAVE, { ref: 'Ps 23:1' }, { token });
    const list = await api.graphql<{ savedVerses: Saved[] }>(LIST, { translation: 'WEB' }, { token });
    expect(list.data?.savedVerses.map((saved) => saved.verse)).toEqual([
      { id: 'Ps.23.1', ref: 'Psalm 23:1', translation: 'WEB' },
      { id: 'John.3.16', ref: 'John 3:16', translation: 'WEB' },
    ]);
  });

  it('keeps one copy when a verse is saved twice', async () => {
    const { session, member } = await signUpMember(api);
    const token = session.accessToken;
    const first = await api.graphql<{ saveVerse: Saved }>(SAVE, { ref: 'Romans 8:28' }, { token });
    const again = await api.graphql<{ saveVerse: Saved }>(SAVE, { ref: 'Rom 8:28' }, { token });
    expect(again.data?.saveVerse.savedAt).toBe(first.data?.saveVerse.savedAt);
    expect(await api.dataSource.getRepository(SavedVerseRecord).countBy({ uid: member.user.uid })).toBe(1);
  });

  it('refuses a reference that names no verse, or more than one, and saves nothing', async () => {
    const { session, member } = await signUpMember(api);
    const token = session.accessToken;
    for (const ref of ['Hezekiah 4:1', 'John 3', 'John 3:16-18', '']) {
      const response = await api.graphql(SAVE, { ref }, { token });
      expect(firstError(response), ref).toMatchObject({ code: 'BAD_USER_INPUT', field: 'ref' });
    }
    expect(await api.dataSource.getRepository(SavedVerseRecord).countBy({ uid: member.user.uid })).toBe(0);
  });

  it('removes a saved verse, and says when there was none to remove', async () => {
    const { session } = await signUpMember(api);
    const token = session.accessToken;
    await api.graphql(SAVE, { ref: 'Micah 6:8' }, { token });
    const removed = await api.graphql<{ unsaveVerse: boolean }>(
      'mutation { unsaveVerse(verseId: "Mic.6.8") }',
      {},
      { token },
    );
    expect(removed.data?.unsaveVerse).toBe(true);
    const again = await api.graphql<{ unsaveVerse: boolean }>(
      'mutation { unsaveVerse(verseId: "Mic.6.8") }',
      {},
      { token },
    );
    expect(again.data?.unsaveVerse).toBe(false);
    const list = await api.graphql<{ savedVerses: Saved[] }>(LIST, {}, { token });
    expect(list.data?.savedVerses).toEqual([]);
  });

  it("shows each member only their own verses, and nobody's to anonymous callers", async () => {
    const a = await signUpMember(api, { first: 'Anna' });
    const b = await signUpMember(api, { first: 'Boaz' });
    await api.graphql(SAVE, { ref: 'Ruth 1:16' }, { token: b.session.accessToken });
    const list = await api.graphql<{ savedVerses: Saved[] }>(LIST, {}, { token: a.session.accessToken });
    expect(list.data?.savedVerses).toEqual([]);
    const anonymous = await api.graphql(LIST);
    expect(firstError(anonymous).code).toBe('UNAUTHENTICATED');
  });

  it('lets a Plus member show a saved verse on their page through the pin', async () => {
    const { session, member } = await signUpMember(api);
    const token = session.accessToken;
    await api.graphql(SAVE, { ref: 'Isaiah 40:31' }, { token });
    await api.dataSource.getRepository(UserRecord).update({ uid: member.user.uid }, { stripeRole: 'plus' });
    const pinned = await api.graphql('mutation { pinVerse(ref: "Isaiah 40:31") { versePinned } }', {}, { token });
    expect(pinned.errors).toBeUndefined();
    const page = await api.graphql<{ profile: { versePinned: boolean; verse: { id: string } } }>(
      'query ($u: String!) { profile(username: $u) { versePinned verse { id } } }',
      { u: member.profile.username },
    );
    expect(page.data?.profile).toEqual({ versePinned: true, verse: { id: 'Isa.40.31' } });
  });
});
