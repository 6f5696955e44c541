// B6: property-based fuzzing of the profile mutations' inputs (updateProfile, changeUsername,
// pinVerse). Every run answers without a 5xx and with only the coded errors the mutation
// documents; what a successful text mutation stored reads back exactly, as the server's
// documented normalisation makes it (tests/support/fuzz.ts). See also fuzzing.test.ts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  anyText,
  enumLike,
  expectCoded,
  FUZZ_ENV,
  optional,
  readMe,
  storedBio,
  storedName,
  validExceptSome,
  wellFormedBio,
  wellFormedName,
  wrongType,
} from '../support/fuzz.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';

let api: TestApp;
/** A member without Plus: updates their profile and username. */
let member: SignedUpMember;
/** A Plus member: pins verses. */
let plus: SignedUpMember;

beforeAll(async () => {
  api = await startTestApp(FUZZ_ENV);
  [member, plus] = await Promise.all([signUpMember(api), signUpMember(api)]);
  await api.dataSource.getRepository(UserRecord).update({ uid: plus.member.user.uid }, { stripeRole: 'plus' });
});
afterAll(async () => {
  await api.close();
});

const THEMES = ['lightTheme', 'darkTheme', 'sunriseTheme', 'gardenTheme'];
const LAYOUTS = ['row', 'column'];
const BUTTONS = ['normalButton', 'outlineButton', 'roundedButton', 'goldButton'];

describe('updateProfile (B6)', () => {
  const UPDATE = `mutation ($input: UpdateProfileInput!) {
    updateProfile(input: $input) { username name bio theme layout button isActive isPublic }
  }`;
  const PUBLIC = 'query ($username: String!) { profile(username: $username) { name bio } }';
  const keys = ['name', 'bio', 'theme', 'layout', 'button', 'isPublic', 'isActive'] as const;
  const valid = fc.record(
    {
      name: wellFormedName,
      bio: wellFormedBio,
      theme: fc.constantFrom('lightTheme', 'darkTheme'),
      layout: fc.constantFrom(...LAYOUTS),
      button: fc.constantFrom('normalButton', 'outlineButton', 'roundedButton'),
      isPublic: fc.boolean(),
      isActive: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  const fuzzed = fc.record({
    name: optional(anyText(60)),
    bio: optional(anyText(200)),
    theme: optional(enumLike(THEMES)),
    layout: optional(enumLike(LAYOUTS)),
    button: optional(enumLike(BUTTONS)),
    isPublic: optional(fc.boolean()),
    isActive: optional(fc.boolean()),
  });
  const input = fc.oneof(
    { weight: 10, arbitrary: validExceptSome(valid, fuzzed, keys) },
    { weight: 3, arbitrary: fuzzed },
    wrongType,
    fc.constant(null),
  );

  it('answers any input with success or a coded error, and stores name and bio as documented', async () => {
    const token = member.session.accessToken;
    await fc.assert(
      fc.asyncProperty(input, async (sent) => {
        const response = await api.graphql<{ updateProfile: { name: string; bio: string } }>(
          UPDATE,
          { input: sent },
          { token },
        );
        if (!expectCoded(response, ['BAD_USER_INPUT', 'PLUS_REQUIRED'])) return;
        const { name, bio } = sent as { name?: unknown; bio?: unknown };
        const stored = (await readMe(api, token)).profile;
        if (typeof name === 'string') expect(stored.name).toBe(storedName(name));
        if (typeof bio === 'string') expect(stored.bio).toBe(storedBio(bio));
        expect(response.data?.updateProfile).toMatchObject({ name: stored.name, bio: stored.bio });
        if (stored.isActive && stored.isPublic) {
          const seen = await api.graphql<{ profile: unknown }>(PUBLIC, { username: stored.username });
          expect(seen.data?.profile).toEqual({ name: stored.name, bio: stored.bio });
        }
      }),
      { numRuns: 60, examples: [[{ name: 'A\ud800' }], [{ bio: 'b\udc00' }], [{ name: 'A\u0000' }]] },
    );
  });

  it('accepts every well-formed name and bio and reads them back exactly', async () => {
    const token = member.session.accessToken;
    await fc.assert(
      fc.asyncProperty(wellFormedName, wellFormedBio, async (name, bio) => {
        const response = await api.graphql(UPDATE, { input: { name, bio } }, { token });
        expect(expectCoded(response, [])).toBe(true);
        const stored = (await readMe(api, token)).profile;
        expect([stored.name, stored.bio]).toEqual([storedName(name), storedBio(bio)]);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses a NUL in a string literal as in a variable; the parser refuses a lone surrogate escape', async () => {
    const token = member.session.accessToken;
    const send = (literal: string) =>
      api.graphql(`mutation { updateProfile(input: { name: "${literal}" }) { name } }`, {}, { token });
    const codes = (response: Awaited<ReturnType<typeof send>>) => [
      response.status,
      ...(response.errors ?? []).map((error) => error.extensions?.code),
    ];
    expect(codes(await send('A\\u0000B'))).toEqual([400, 'BAD_USER_INPUT']);
    expect(codes(await send('A\\uD800B'))).toEqual([400, 'GRAPHQL_PARSE_FAILED']);
  });
});

describe('changeUsername (B6)', () => {
  const CHANGE = 'mutation ($username: String!) { changeUsername(username: $username) { username } }';
  const PUBLIC = 'query ($username: String!) { profile(username: $username) { username } }';
  const chosen = fc.oneof(
    { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9_.]{2,29}$/) },
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.]{2,29}$/).map((name) => ` ${name}\t`),
    fc.constantFrom('admin', 'the_admin', 'lampstand.fan', 'graphql', '\u212Aate', 'İstanbul', 'ab', 'a'.repeat(31)),
    { weight: 2, arbitrary: anyText(40) },
  );

  it('answers any username with success or a coded error, and stores it trimmed and lowercased', async () => {
    const token = member.session.accessToken;
    const usernames = fc.oneof({ weight: 8, arbitrary: chosen }, fc.constant(plus.member.profile.username), wrongType);
    await fc.assert(
      fc.asyncProperty(usernames, async (username) => {
        const response = await api.graphql(CHANGE, { username }, { token });
        if (!expectCoded(response, ['BAD_USER_INPUT', 'USERNAME_TAKEN'])) return;
        const expected = (username as string).trim().toLowerCase();
        expect((await readMe(api, token)).profile.username).toBe(expected);
        // The page may be private or inactive after updateProfile's runs: then nobody sees it.
        const seen = await api.graphql<{ profile: { username: string } | null }>(PUBLIC, { username: expected });
        expect(seen.data?.profile?.username ?? expected).toBe(expected);
      }),
      { numRuns: 50 },
    );
  });
});

describe('pinVerse (B6)', () => {
  const PIN = 'mutation ($ref: String!) { pinVerse(ref: $ref) { versePinned verse { id ref } } }';
  const number = fc.oneof(fc.integer({ min: -3, max: 200 }), fc.constantFrom(0, 2 ** 31, 2 ** 53 + 1, 1e21));
  const ref = fc.oneof(
    fc.constantFrom('John 3:16', 'Jn 3:16', '1 Cor 13:4', 'Genesis 1:1', 'Psalm 23', 'John 3:16-18', ' jude 1:25 '),
    fc
      .tuple(fc.constantFrom('John', 'Jn', 'Gen', '1 Cor', 'Ps', 'Rev', 'Jude', 'Obadiah', 'Hezekiah'), number, number)
      .map(([book, chapter, verse]) => `${book} ${chapter}:${verse}`),
    anyText(120),
  );

  it('answers any reference with success or a coded error, and a pinned verse reads back', async () => {
    const token = plus.session.accessToken;
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 8, arbitrary: ref }, wrongType), async (sent) => {
        const response = await api.graphql<{ pinVerse: { versePinned: boolean; verse: { id: string } } }>(
          PIN,
          { ref: sent },
          { token },
        );
        if (!expectCoded(response, ['BAD_USER_INPUT'])) return;
        expect(response.data?.pinVerse.versePinned).toBe(true);
        const read = await api.graphql<{ me: { profile: { verse: { id: string } } } }>(
          '{ me { profile { verse { id } } } }',
          {},
          { token },
        );
        expect(read.data?.me.profile.verse.id).toBe(response.data?.pinVerse.verse.id);
      }),
      { numRuns: 50 },
    );
  });

  it('answers a member without Plus with PLUS_REQUIRED or BAD_USER_INPUT', async () => {
    const token = member.session.accessToken;
    await fc.assert(
      fc.asyncProperty(ref, async (sent) => {
        const response = await api.graphql(PIN, { ref: sent }, { token });
        expect(expectCoded(response, ['BAD_USER_INPUT', 'PLUS_REQUIRED'])).toBe(false);
      }),
      { numRuns: 25 },
    );
  });
});
