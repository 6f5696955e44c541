import { describe, expect, it } from 'vitest';
import { rate } from '../../web/src/ui/password/strength';

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
