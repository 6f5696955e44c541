import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloServerErrorCode, ApolloServerValidationErrorCode } from '@apollo/server/errors';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { describe, expect, it } from 'vitest';
import { fromIdentityError } from '../../server/src/accounts/identity-errors';
import { ErrorCode } from '../../server/src/graphql/errors';
import { IdentityError } from '../../server/src/identity/identity.client';
import { API_ERROR_WORDS, failureWords } from '../../web/src/lib/error-words';
import { describeError } from '../../web/src/lib/errors';

const SERVER = path.resolve(import.meta.dirname, '../../server/src');

/** Every code the API's errors can carry: Lampstand's, Apollo Server's, and the web's own NETWORK. */
const API_CODES = [
  ...Object.values(ErrorCode),
  ...Object.values(ApolloServerErrorCode),
  ...Object.values(ApolloServerValidationErrorCode),
  'NETWORK',
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Every code the identity service answers with (the embedded one's errors, as the API's client
 * reads them) and every code the API's translation of them names.
 */
function identityCodes(): string[] {
  const codes = new Set<string>(['validation_failed', 'identity_unavailable']);
  const made =
    /(?:badRequest|forbidden|unprocessable|tooManyRequests|new ApiError|new IdentityError)\(\s*(?:\d+,\s*)?'([a-z][a-z0-9_]*)'/g;
  for (const file of [
    ...sourceFiles(path.join(SERVER, 'identity')),
    path.join(SERVER, 'accounts/identity-errors.ts'),
  ]) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(made)) codes.add(match[1] ?? '');
    if (file.endsWith('identity-errors.ts')) {
      for (const match of text.matchAll(/(?:case |^\s*)'([a-z][a-z0-9_]*)'[,:]/gm)) codes.add(match[1] ?? '');
    }
  }
  codes.delete('');
  return [...codes].sort();
}

/** Words for people: no code of the API or the identity service in them, in brackets or not. */
function expectWords(text: string, code: string) {
  expect(text.trim()).not.toBe('');
  expect(text).not.toContain(code);
  expect(text).not.toMatch(/\b[A-Z]+_[A-Z_]+\b|\b[a-z]+_[a-z_]+\b|\([A-Za-z_]+\)/);
  expect(text).toMatch(/[.!?…]$/);
}

/** What the web reads of an error the API sent (through Apollo Client's own error type). */
function asReceived(error: { message: string; extensions: Record<string, unknown> }) {
  return describeError(
    new CombinedGraphQLErrors({ data: null, errors: [{ message: error.message, extensions: error.extensions }] }),
  );
}

describe('the words for every error code', () => {
  it('finds the codes it walks (the lists are not empty by mistake)', () => {
    expect(API_CODES.length).toBeGreaterThan(25);
    expect(identityCodes()).toEqual(expect.arrayContaining(['user_already_exists', 'weak_password', 'otp_expired']));
  });

  it.each(API_CODES)('has words for the API code %s', (code) => {
    expect(Object.keys(API_ERROR_WORDS)).toContain(code);
    expectWords(API_ERROR_WORDS[code] ?? '', code);
    // What a screen shows when the API's sentence is missing.
    expectWords(failureWords({ code, message: '', identityCode: null, reasons: [] }), code);
  });

  it.each(identityCodes())('says the identity code %s in words, never the identity service’s own sentence', (code) => {
    const raw = 'Raw identity sentence with its code';
    const status = code === 'identity_unavailable' || code === 'unexpected_failure' ? 503 : 400;
    const apiError = fromIdentityError(new IdentityError(status, code, raw, ['pwned']));
    const failure = asReceived({ message: apiError.message, extensions: apiError.extensions });
    const words = failureWords(failure);
    expectWords(words, code);
    expectWords(words, failure.code);
    expect(words).not.toContain(raw);
  });

  it('says why a password was refused when the API says it', () => {
    const failure = asReceived({ message: 'weak', extensions: { code: 'WEAK_PASSWORD', reasons: ['length'] } });
    expect(failureWords(failure)).toBe('That password is too short: use at least 8 characters.');
  });

  it('keeps the API’s own sentence where it names what is wrong', () => {
    const failure = asReceived({
      message: 'Use at most 50 characters.',
      extensions: { code: 'BAD_USER_INPUT', field: 'input.first' },
    });
    expect(failureWords(failure)).toBe('Use at most 50 characters.');
  });
});
