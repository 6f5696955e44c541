import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../server/src/identity/embedded/errors.js';
import {
  checkPasswordStrength,
  hashPassword,
  isSupportedHash,
  needsRehash,
  verifyPassword,
} from '../../../server/src/identity/embedded/passwords.js';

function rejection(password: string): ApiError | undefined {
  try {
    checkPasswordStrength(password, 8);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

describe('password hashing', () => {
  it('hashes with argon2id at OWASP parameters (19 MiB, t=2, p=1) and verifies', async () => {
    const stored = await hashPassword('a long and quiet passphrase');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(verifyPassword(stored, 'a long and quiet passphrase')).resolves.toBe(true);
    await expect(verifyPassword(stored, 'another passphrase')).resolves.toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('verifies bcrypt hashes imported from Supabase ($2a$ and $2b$) and marks them for rehashing', async () => {
    const b = await bcrypt.hash('imported secret', 4);
    const a = b.replace(/^\$2b\$/, '$2a$');
    for (const stored of [a, b]) {
      expect(isSupportedHash(stored)).toBe(true);
      await expect(verifyPassword(stored, 'imported secret')).resolves.toBe(true);
      await expect(verifyPassword(stored, 'imported secreT')).resolves.toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it('refuses hashes of other schemes', async () => {
    expect(isSupportedHash('md5$abc')).toBe(false);
    await expect(verifyPassword('plain', 'plain')).resolves.toBe(false);
  });
});

describe('password policy (product.md)', () => {
  it('B7 rejects 7 characters with the length reason', () => {
    expect(rejection('abcdefg')).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
  });

  it('B7 rejects blocklisted passwords whatever their case', () => {
    for (const password of ['password1', 'PASSWORD1', 'iloveyou', 'qwertyuiop']) {
      expect(rejection(password)).toMatchObject({ reasons: ['pwned'] });
    }
  });

  it('B7 rejects faith words with digits, years or symbols around them', () => {
    for (const password of [
      'Jesus1234',
      'jesus2024!',
      'Blessed123',
      'PSALM2323',
      'John316!',
      '#Hallelujah7',
      'God is good 1',
      'Jésus2024',
      'Hallélujah!',
    ]) {
      expect(rejection(password), password).toMatchObject({ reasons: ['pwned'] });
    }
  });

  it('B7 accepts passphrases that only contain a faith word', () => {
    for (const password of ['grace under a walnut tree', 'my-faith-keeps-47-lamps']) {
      expect(rejection(password), password).toBeUndefined();
    }
  });

  it('B7 counts characters, not bytes, for the minimum', () => {
    expect(rejection('ééééééé')).toMatchObject({ reasons: ['length'] });
    expect(rejection('éééééééé')).toBeUndefined();
    // Letters with a combining accent (two code units each) and a family emoji (eight code units)
    // count once each.
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(rejection('e\u0301'.repeat(7))).toMatchObject({ reasons: ['length'] });
    expect(rejection(`w${'o\u0308'.repeat(6)}${family}`)).toBeUndefined();
    expect(rejection(`wor${family.repeat(2)}`)).toMatchObject({
      reasons: ['length'],
    });
  });

  it('B7 rejects more than 72 bytes with validation_failed and a message that says so', () => {
    const tooLong = {
      status: 400,
      code: 'validation_failed',
      message: expect.stringMatching(/longer than 72 .*bytes/),
    };
    expect(rejection('a'.repeat(73))).toMatchObject(tooLong);
    expect(rejection('a'.repeat(72))).toBeUndefined();
    expect(rejection('🙏'.repeat(19))).toMatchObject(tooLong);
    expect(rejection('🙏'.repeat(18))).toBeUndefined();
  });

  it('B7 accepts a 64-character passphrase and a Unicode one without composition rules', () => {
    const passphrase = 'the lord is my shepherd; i shall not want. he maketh me lie down';
    expect(passphrase).toHaveLength(64);
    expect(rejection(passphrase)).toBeUndefined();
    expect(rejection('Господь — пастырь мой')).toBeUndefined();
  });
});
