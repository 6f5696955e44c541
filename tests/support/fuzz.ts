// Arbitraries and checks for fuzzing the GraphQL API's inputs (quality row B6).
import fc from 'fast-check';
import { expect } from 'vitest';
import type { GraphQLResponse, TestApp } from './app.js';
import type { MemberData } from './members.js';
import { MEMBER_FIELDS } from './members.js';

/** Characters that trip text handling: controls, invisible and direction marks, markup, quotes. */
const AWKWARD_CHARACTERS = [
  '\u0000',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\u000b',
  '\f',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2028',
  '\u2029',
  '\u2066',
  '\u2069',
  '\u3000',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\u0301',
  '\ufe0f',
  'İ',
  'ß',
  'K',
  'ﬀ',
  '👍🏽',
  '👨‍👩‍👧',
  '🇳🇴',
  '<',
  '>',
  '&',
  '"',
  "'",
  '`',
  '\\',
  '/',
  '%',
  '$',
  '{',
  '}',
  ';',
  ' ',
  '.',
  '_',
  '@',
  ':',
];

/** One UTF-16 half of a surrogate pair, alone: JSON can carry it (`"\ud800"`), UTF-8 cannot. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/** Strings meant to break things: markup, SQL, template and path tricks. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\n\n\n',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'; DROP TABLE profiles; --",
  "' OR '1'='1",
  '${7*7}{{7*7}}',
  '../../../etc/passwd',
  '%00%0d%0a',
  '\u202egnp.exe',
  'null',
  'undefined',
  '__proto__',
  'constructor',
];

/**
 * Any text a client could send: arbitrary code points, awkward characters (controls, zero-width
 * and RTL marks, lone surrogates, markup), known nasty strings, and long strings up to 4 KB.
 */
export function anyText(maxLength = 80): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    {
      weight: 3,
      arbitrary: fc.string({
        unit: fc.oneof(fc.constantFrom(...AWKWARD_CHARACTERS), fc.string({ unit: 'grapheme-ascii', maxLength: 1 })),
        maxLength,
      }),
    },
    {
      // Text that is otherwise fine, with a NUL or a lone surrogate in it: what no database keeps.
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom('Ann', 'a b', 'x'),
          fc.oneof(loneSurrogate, fc.constant('\u0000')),
          fc.constantFrom('', 'z'),
        )
        .map((parts) => parts.join('')),
    },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1000, maxLength: 4000 }) },
  );
}

/** Values of the wrong type for any field: numbers odd and large, booleans, lists, objects. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e-308),
  fc.boolean(),
  fc.constant([]),
  fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

/** What an optional field may be sent as: left out, null, some text, or the wrong type. */
export function optional<T>(value: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 5, arbitrary: value },
    { weight: 1, arbitrary: wrongType },
  );
}

/**
 * An input that is valid except for up to `most` of its fields, which take fuzzed values: runs
 * then reach the resolver's own checks (and succeed) often enough to test them, instead of
 * nearly always failing on the first of many bad fields.
 */
export function validExceptSome<T extends Record<string, unknown>>(
  valid: fc.Arbitrary<T>,
  fuzzed: fc.Arbitrary<Record<keyof T, unknown>>,
  keys: readonly (keyof T & string)[],
  most = 2,
): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(valid, fuzzed, fc.subarray([...keys], { maxLength: most }))
    .map(([base, odd, chosen]) => ({ ...base, ...Object.fromEntries(chosen.map((key) => [key, odd[key]])) }));
}

/** A value for an enum: one of its values, something enum-like (case, whitespace), or any text. */
export function enumLike(values: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...values),
    fc.constantFrom(...values).map((value) => value.toUpperCase()),
    fc.constantFrom(...values).map((value) => ` ${value}`),
    anyText(20),
  );
}

/**
 * What every fuzzed call must answer: never a 5xx. Invalid variables (wrong type, unknown enum
 * value, null for a required field, text no database keeps) are refused before running, with HTTP
 * 400 and BAD_USER_INPUT only; otherwise HTTP 200 with data, or with errors whose codes are all in
 * `allowed` (never INTERNAL_SERVER_ERROR). True when the call succeeded.
 */
export function expectCoded(response: GraphQLResponse<unknown>, allowed: readonly string[]): boolean {
  const summary = JSON.stringify({ status: response.status, errors: response.errors });
  expect(response.status, summary).toBeLessThan(500);
  const codes = (response.errors ?? []).map((error) => error.extensions?.code);
  if (response.status === 400) {
    expect(codes.length, summary).toBeGreaterThan(0);
    expect(new Set(codes), summary).toEqual(new Set(['BAD_USER_INPUT']));
    return false;
  }
  expect(response.status, summary).toBe(200);
  for (const code of codes) expect(allowed, summary).toContain(code);
  return codes.length === 0;
}

/** Rate limits out of the way, so that fuzzed calls reach the checks they are meant to reach. */
export const FUZZ_ENV = {
  AUTH_RATE_LIMIT_OTP: '100000',
  AUTH_RATE_LIMIT_TOKEN: '100000',
  AUTH_RATE_LIMIT_TOKEN_BURST: '100000',
  AUTH_RATE_LIMIT_EMAIL_SENT: '100000',
  AUTH_RATE_LIMIT_VERIFY: '100000',
  AUTH_SMTP_MAX_FREQUENCY: '0',
};

export type StoredMember = MemberData & { profile: { bio: string } };

/** The signed-in member as the API reads it back. */
export async function readMe(api: Pick<TestApp, 'graphql'>, token: string): Promise<StoredMember> {
  const read = await api.graphql<{ me: StoredMember | null }>(
    `{ me { ${MEMBER_FIELDS} profile { bio } } }`,
    {},
    { token },
  );
  expect(read.errors, JSON.stringify(read.errors)).toBeUndefined();
  if (!read.data?.me) throw new Error('me is null');
  return read.data.me;
}

// The normalisation the server documents. A name is trimmed (server/src/profiles/names.ts); a bio
// has CR LF as LF, other white-space runs as one space, no space around line breaks, at most two
// line breaks in a row, and is trimmed (ibid.); a link's title is trimmed with inner runs of
// white space made one space (server/src/links/link-rules.ts).
export const storedName = (name: string): string => name.trim().normalize('NFC');
export const storedBio = (bio: string): string =>
  bio
    .replace(/\r\n?/gu, '\n')
    .replace(/[^\S\n]+/gu, ' ')
    .replace(/ *\n */gu, '\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
export const storedTitle = (title: string): string => title.replace(/\s+/gu, ' ').trim();

/** Words in many scripts, with combining, joining and direction marks. */
const WORD_CHARACTERS = [
  'a',
  'é',
  'ß',
  'Ω',
  'ж',
  'א',
  'ب',
  '中',
  '👍🏽',
  'e\u0301',
  '\u200d',
  '\u200f',
  '-',
  "'",
  '<',
  '>',
];

/** The characters of names: those of words but the joiner and direction mark the name rule refuses. */
const NAME_CHARACTERS = WORD_CHARACTERS.filter((character) => !/[\u200d\u200f]/u.test(character));

/** Names of 1–50 visible characters, with white space around them. */
export const wellFormedName: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('A', 'Ж', '中', 'א', 'ب', '👍🏽', 'É', '<'),
    fc.string({ unit: fc.constantFrom(...NAME_CHARACTERS, ' '), maxLength: 22 }),
    fc.constantFrom('', ' ', '\t', '  '),
  )
  .map(([first, rest, pad]) => `${pad}${first}${rest}${pad}`);

/** Bios within 160 characters: words, spaces, tabs and line breaks of every kind. */
export const wellFormedBio: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(...WORD_CHARACTERS, ' ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u2029', '\u3000'),
  maxLength: 60,
});

/** Link titles within 80 characters after trimming, with every kind of white space inside. */
export const wellFormedTitle: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('A', 'Ж', '中', '👍🏽', '<b>'),
    fc.string({
      unit: fc.constantFrom(...WORD_CHARACTERS, ' ', '\t', '\n', '\u00a0', '\u2028', '\u3000', '\ufeff'),
      maxLength: 35,
    }),
  )
  .map(([first, rest]) => ` ${first}${rest} `);
