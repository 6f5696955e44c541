import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/src/config.js';
import { parseGoDuration } from '../../../server/src/identity/embedded/durations.js';
import { isRedirectAllowed } from '../../../server/src/identity/embedded/redirects.js';

const ecKey = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' };

describe('AUTH_JWT_KEYS', () => {
  it('infers the algorithm and puts the signing key first', () => {
    const config = loadConfig({
      AUTH_JWT_KEYS: JSON.stringify([
        { ...ecKey, kid: 'old', key_ops: ['verify'] },
        { ...ecKey, kid: 'new', key_ops: ['sign', 'verify'] },
      ]),
    });
    expect(config.auth.jwtKeys?.map((key) => [key.kid, key.alg])).toEqual([
      ['new', 'ES256'],
      ['old', 'ES256'],
    ]);
  });

  it('refuses several keys without exactly one signing key, keys without kid, and public keys', () => {
    const bad = [
      [
        { ...ecKey, kid: 'a' },
        { ...ecKey, kid: 'b' },
      ],
      [{ ...ecKey }],
      [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'public' }],
      'not json',
    ];
    for (const value of bad) {
      expect(() => loadConfig({ AUTH_JWT_KEYS: typeof value === 'string' ? value : JSON.stringify(value) })).toThrow(
        ConfigError,
      );
    }
  });

  it('defaults the issuer to PUBLIC_URL/auth/v1, as the Supabase CLI does', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://lampstand.example' }).auth.jwtIssuer).toBe(
      'https://lampstand.example/auth/v1',
    );
  });
});

describe('redirect allow list', () => {
  const settings = loadConfig({
    AUTH_SITE_URL: 'https://lampstand.example',
    AUTH_URI_ALLOW_LIST: 'https://*.lampstand.example/**,lampstand://callback',
  }).auth;

  it('allows the site, loopback addresses and listed patterns', () => {
    expect(isRedirectAllowed(settings, 'https://lampstand.example/reset')).toBe(true);
    expect(isRedirectAllowed(settings, 'http://127.0.0.1:5173/welcome')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://app.lampstand.example/deep/path')).toBe(true);
    expect(isRedirectAllowed(settings, 'lampstand://callback')).toBe(true);
  });

  it('refuses other hosts, look-alikes and non-loopback IP addresses', () => {
    expect(isRedirectAllowed(settings, 'https://evil.example/')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://a.b.lampstand.example/x')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://lampstand.example.evil.example/')).toBe(false);
    expect(isRedirectAllowed(settings, 'http://3232235777/')).toBe(false);
  });
});

describe('ban durations', () => {
  it('reads Go durations', () => {
    expect(parseGoDuration('24h')).toBe(86_400_000);
    expect(parseGoDuration('1h30m')).toBe(5_400_000);
    expect(parseGoDuration('1.5s')).toBe(1500);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('forever')).toBeUndefined();
  });
});
