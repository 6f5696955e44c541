// B6: property-based fuzzing of the account mutations' inputs (signUp, login,
// requestPasswordReset, updateEmail). Every run answers without a 5xx and with only the coded
// errors the mutation documents; what a successful sign-up stored reads back exactly, as the
// server's documented normalisation makes it. The profile mutations are fuzzed in
// fuzzing-profile.test.ts, the link mutations in fuzzing-links.test.ts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  anyText,
  enumLike,
  expectCoded,
  FUZZ_ENV,
  optional,
  readMe,
  storedName,
  validExceptSome,
  wellFormedName,
  wrongType,
} from '../support/fuzz.js';
import { GOOD_PASSWORD } from '../support/identity.js';
import type { SignedUpMember, SignUpData } from '../support/members.js';
import { signUpMember, SIGN_UP } from '../support/members.js';

let api: TestApp;
/** Asks for email changes. */
let mover: SignedUpMember;
/** Signs in, and is sent password-reset mail. */
let signer: SignedUpMember;

beforeAll(async () => {
  api = await startTestApp(FUZZ_ENV);
  [mover, signer] = await Promise.all([signUpMember(api), signUpMember(api)]);
});
afterAll(async () => {
  await api.close();
});

/** Fresh addresses, so that sign-ups and email changes are not refused as taken by an earlier run. */
let addresses = 0;
const freshEmail = () => `fuzz-${Date.now()}-${++addresses}@example.org`;
const fresh = fc.constant(null).map(() => freshEmail());

/** An address as a person might type it: any case, with white space around it. */
const typedAs = (email: string) =>
  fc
    .tuple(fc.boolean(), fc.constantFrom('', ' ', '\t', '  '))
    .map(([upper, pad]) => `${pad}${upper ? email.toUpperCase() : email}${pad}`);

describe('updateEmail (B6)', () => {
  const UPDATE_EMAIL = 'mutation ($email: String!) { updateEmail(email: $email) { pendingEmail } }';

  it('answers any address with success or a coded error, and keeps the address trimmed and lowercased', async () => {
    const token = mover.session.accessToken;
    const email = fc.oneof(
      { weight: 3, arbitrary: fresh },
      fc.constant(null).chain(() => typedAs(freshEmail())),
      fc.emailAddress(),
      typedAs(mover.email),
      typedAs(signer.email),
      anyText(80),
      anyText(40).map((local) => `${local}@example.org`),
      fc.string({ minLength: 250, maxLength: 300 }).map((local) => `${local}@example.org`),
      wrongType,
    );
    await fc.assert(
      fc.asyncProperty(email, async (sent) => {
        const response = await api.graphql<{ updateEmail: { pendingEmail: string } }>(
          UPDATE_EMAIL,
          { email: sent },
          { token },
        );
        if (!expectCoded(response, ['BAD_USER_INPUT', 'EMAIL_TAKEN', 'RATE_LIMITED'])) return;
        expect(response.data?.updateEmail.pendingEmail).toBe((sent as string).trim().toLowerCase());
      }),
      { numRuns: 40 },
    );
  });
});

describe('requestPasswordReset and login (B6)', () => {
  const RESET = 'mutation ($email: String!) { requestPasswordReset(email: $email) { message } }';
  const LOGIN = 'mutation ($input: LoginInput!) { login(input: $input) { member { user { uid } } } }';
  const email = () =>
    fc.oneof(
      typedAs(signer.email),
      fc.emailAddress(),
      anyText(80),
      fc.string({ minLength: 256, maxLength: 400 }),
      wrongType,
    );

  it('answers any address with the same notice or a coded error', async () => {
    await fc.assert(
      fc.asyncProperty(email(), async (sent) => {
        const response = await api.graphql<{ requestPasswordReset: { message: string } }>(RESET, { email: sent });
        if (expectCoded(response, ['BAD_USER_INPUT', 'RATE_LIMITED'])) {
          expect(response.data?.requestPasswordReset.message).toEqual(expect.any(String));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('signs in exactly when the address and password are right, and answers anything else with a coded error', async () => {
    const password = fc.oneof(
      fc.constant(signer.password),
      anyText(100),
      fc.string({ minLength: 1025, maxLength: 2000 }),
      wrongType,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 8, arbitrary: fc.record({ email: email(), password }) }, wrongType, fc.constant(null)),
        async (input) => {
          const response = await api.graphql<{ login: { member: { user: { uid: string } } } }>(LOGIN, { input });
          const signedIn = expectCoded(response, ['BAD_USER_INPUT', 'INVALID_CREDENTIALS', 'RATE_LIMITED']);
          const sent = input as { email?: unknown; password?: unknown } | null;
          const right =
            typeof sent?.email === 'string' &&
            sent.email.trim().toLowerCase() === signer.email &&
            sent.password === signer.password;
          expect(signedIn).toBe(right);
          if (signedIn) expect(response.data?.login.member.user.uid).toBe(signer.member.user.uid);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('signUp (B6)', () => {
  const keys = ['email', 'password', 'first', 'platform', 'birthday', 'platformID', 'timeZone'] as const;
  const valid = () =>
    fc.record(
      {
        email: fc.oneof(
          { weight: 3, arbitrary: fresh },
          fc.constant(null).chain(() => typedAs(freshEmail())),
        ),
        password: fc.constantFrom(GOOD_PASSWORD, 'ünïcödé passphrase 🔑', 'long words '.repeat(6)),
        first: wellFormedName,
        platform: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,31}$/),
        birthday: fc
          .date({ min: new Date('1900-01-01'), max: new Date('2010-01-01'), noInvalidDate: true })
          .map((date) => date.toISOString().slice(0, 10)),
        platformID: fc.string({ minLength: 1, maxLength: 128 }),
        timeZone: fc.constantFrom('Europe/Oslo', 'America/Chicago', 'UTC', 'Etc/GMT+12', 'Asia/Kathmandu'),
      },
      { requiredKeys: ['email', 'password', 'first', 'platform'] },
    );
  const fuzzed = () =>
    fc.record({
      email: fc.oneof(typedAs(signer.email), fc.emailAddress(), anyText(80), wrongType),
      password: fc.oneof(
        anyText(100),
        fc.constantFrom('password', 'short', 'x'.repeat(73), '\u00e9'.repeat(37)),
        wrongType,
      ),
      first: fc.oneof(anyText(60), wrongType, fc.constant(null)),
      platform: fc.oneof(enumLike(['web', 'ios']), wrongType),
      birthday: optional(
        fc.oneof(
          fc.constantFrom(
            '2000-02-30',
            '2001-02-29',
            '1990-13-01',
            '0000-00-00',
            '9999-12-31',
            '1990-1-1',
            '2020-01-01',
          ),
          anyText(20),
        ),
      ),
      platformID: optional(fc.oneof(anyText(140), fc.constant(''), fc.string({ minLength: 129, maxLength: 200 }))),
      timeZone: optional(fc.oneof(fc.constantFrom('Mars/Olympus', 'utc', '+01:00', 'Europe/Oslo '), anyText(70))),
    });

  it('answers any sign-up with a member whose records hold what was sent, or a coded error', async () => {
    const input = fc.oneof({ weight: 8, arbitrary: validExceptSome(valid(), fuzzed(), keys) }, fuzzed(), wrongType);
    await fc.assert(
      fc.asyncProperty(input, async (sent) => {
        const response = await api.graphql<SignUpData>(SIGN_UP, { input: sent });
        if (!expectCoded(response, ['BAD_USER_INPUT', 'WEAK_PASSWORD', 'EMAIL_TAKEN', 'RATE_LIMITED'])) return;
        const session = response.data?.signUp.session;
        if (!session) throw new Error('no session with autoconfirm on');
        const stored = await readMe(api, session.accessToken);
        const given = sent as {
          email: string;
          first: string;
          platform: string;
          birthday?: string | null;
          platformID?: string | null;
        };
        expect(stored.user).toMatchObject({
          email: given.email.trim().toLowerCase(),
          first: storedName(given.first),
          platform: given.platform,
          birthday: given.birthday ?? null,
          platformID: given.platformID ?? null,
        });
        expect(stored.profile.name).toBe(storedName(given.first));
        expect(response.data?.signUp.member?.user).toEqual(stored.user);
        expect(response.data?.signUp.member?.profile.name).toBe(stored.profile.name);
      }),
      {
        numRuns: 40,
        // What fuzzing found once (a 500 on PostgreSQL, text changed on both), kept as regressions.
        examples: [
          [{ email: freshEmail(), password: GOOD_PASSWORD, first: 'A\ud800', platform: 'web' }],
          [{ email: freshEmail(), password: GOOD_PASSWORD, first: 'Ann', platform: 'web', platformID: 'a\u0000' }],
        ],
      },
    );
  });
});
