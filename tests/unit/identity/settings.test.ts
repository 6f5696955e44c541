import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/src/config.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseGoDuration } from '../../../server/src/identity/embedded/durations.js';
import { loadIdentityKeys } from '../../../server/src/identity/embedded/keys.js';
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

  it('allows the site and listed patterns', () => {
    expect(isRedirectAllowed(settings, 'https://lampstand.example/reset')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://LampStand.example:443/reset')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://app.lampstand.example/deep/path')).toBe(true);
    expect(isRedirectAllowed(settings, 'lampstand://callback')).toBe(true);
  });

  it('refuses other hosts, look-alikes and non-loopback IP addresses', () => {
    expect(isRedirectAllowed(settings, 'https://evil.example/')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://a.b.lampstand.example/x')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://lampstand.example.evil.example/')).toBe(false);
    expect(isRedirectAllowed(settings, 'http://3232235777/')).toBe(false);
  });

  it('refuses a host that a backslash or an @ ends early, which a pattern would read further', () => {
    expect(isRedirectAllowed(settings, 'https://intranet\\@app.lampstand.example/')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://intranet\\app.lampstand.example/')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://app.lampstand.example\\@evil.example/')).toBe(false);
  });

  it('gives loopback addresses no exception, however they are written', () => {
    for (const target of [
      'http://127.0.0.1:9999/',
      'http://localhost:5173/welcome',
      'http://0x7f.1/',
      'http://[::1]:3000/',
    ]) {
      expect(isRedirectAllowed(settings, target), target).toBe(false);
    }
    const local = loadConfig({
      AUTH_SITE_URL: 'http://localhost:3000',
      AUTH_URI_ALLOW_LIST: 'http://127.0.0.1:5173/**',
    }).auth;
    expect(isRedirectAllowed(local, 'http://localhost:3000/reset')).toBe(true);
    expect(isRedirectAllowed(local, 'http://localhost:3001/reset')).toBe(false);
    expect(isRedirectAllowed(local, 'http://127.0.0.1:5173/welcome')).toBe(true);
    expect(isRedirectAllowed(local, 'http://127.0.0.1:5174/welcome')).toBe(false);
  });

  it('lists the web dev server by default in development only', () => {
    expect(isRedirectAllowed(loadConfig({ NODE_ENV: 'development' }).auth, 'http://localhost:5173/welcome')).toBe(true);
    expect(isRedirectAllowed(loadConfig({ NODE_ENV: 'test' }).auth, 'http://localhost:5173/welcome')).toBe(false);
  });

  it('refuses control characters', () => {
    expect(isRedirectAllowed(settings, 'https://lampstand.example/\r\nSet-Cookie: a=b')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://lampstand.example/a\tb')).toBe(false);
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

describe('AUTH_PASSWORD_MIN_LENGTH', () => {
  it("accepts Supabase Auth's range, 6 to 72, and keeps 8 by default", () => {
    expect(loadConfig({}).auth.passwordMinLength).toBe(8);
    expect(loadConfig({ AUTH_PASSWORD_MIN_LENGTH: '6' }).auth.passwordMinLength).toBe(6);
    expect(loadConfig({ AUTH_PASSWORD_MIN_LENGTH: '72' }).auth.passwordMinLength).toBe(72);
    expect(() => loadConfig({ AUTH_PASSWORD_MIN_LENGTH: '5' })).toThrow(ConfigError);
    expect(() => loadConfig({ AUTH_PASSWORD_MIN_LENGTH: '73' })).toThrow(ConfigError);
  });
});

describe('the development secret', () => {
  it('is made on the first start only, which is when its keys are shown', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lampstand-keys-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const first = await loadIdentityKeys(config);
      expect(first).toMatchObject({ development: true, developmentCreated: true });
      expect(first.developmentFile).toBe(path.join(dataDir, 'dev-secrets.json'));
      const next = await loadIdentityKeys(config);
      expect(next).toMatchObject({
        development: true,
        developmentCreated: false,
        serviceRoleKey: first.serviceRoleKey,
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
