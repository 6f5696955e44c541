import { dictionary } from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import { passwordProblems } from '../../server/src/identity/password-policy';
import { rate } from '../../web/src/ui/password/strength';

/** What the server says of a password: refused (and why) or accepted. */
function serverRefuses(password: string): boolean {
  const { tooLong, weak } = passwordProblems(password);
  return tooLong !== null || weak.length > 0;
}

describe('the password-strength meter', () => {
  it.each(['password1', 'iloveyou', 'Jesus1234', 'blessed2024', 'hallelujah'])('rates %j weak', (password) => {
    expect(rate(password, []).score).toBeLessThanOrEqual(1);
  });

  it('rates the member’s own name weak', () => {
    expect(rate('Bartholomew', ['Bartholomew']).score).toBeLessThanOrEqual(1);
  });

  it('rates a long passphrase strong', () => {
    expect(rate('walnut lantern quietly bicycles north', []).score).toBeGreaterThanOrEqual(3);
  });
});

describe('the meter and the server’s password policy', () => {
  const commonWords = dictionary['passwords-common'];

  it('refuses every password on the server’s blocklist, not only the most common ones', () => {
    const missed = commonWords
      .filter((word) => serverRefuses(word))
      .filter((word) => rate(word, []).refused === null || rate(word, []).score > 0);
    expect(missed).toEqual([]);
  });

  it.each(['Jesus1234', 'Blessed2024!', 'HALLELUJAH', 'Jésus2025', '7grace7', 'short', 'x'.repeat(73)])(
    'says why %j is refused, as the server refuses it',
    (password) => {
      expect(serverRefuses(password)).toBe(true);
      const strength = rate(password, []);
      expect(strength.score).toBe(0);
      expect(strength.refused).not.toBeNull();
      expect(strength.advice).toMatch(/cannot be used|at least 8|too long/);
    },
  );

  it.each(['walnut lantern quietly', 'sparrow-tin-violet-81', 'Grace and quiet rivers'])(
    'accepts %j as the server does',
    (password) => {
      expect(serverRefuses(password)).toBe(false);
      expect(rate(password, []).refused).toBeNull();
    },
  );

  it('rates no password the server accepts as refused, across the ranked list with a suffix', () => {
    const sample = commonWords.filter((_word, index) => index % 97 === 0).map((word) => `${word} lantern 42`);
    const disagreements = sample.filter(
      (password) => serverRefuses(password) !== (rate(password, []).refused !== null),
    );
    expect(disagreements).toEqual([]);
  });
});
