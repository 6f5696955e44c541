import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config.js';

const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://lampstand.example',
  AUTH_JWT_SECRET: 'a-production-secret-that-is-long-enough-for-hs256',
  AUTH_MFA_ENCRYPTION_KEY: 'cHJvZHVjdGlvbi1tZmEta2V5LW9mLTMyLWJ5dGVzISE',
};

describe('production settings', () => {
  it('refuses to start without SMTP_URL, whose absence would log live account links', () => {
    expect(() => loadConfig(production)).toThrow(/SMTP_URL: required in production/);
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://mail.example:587' }).mail.smtpUrl).toBe(
      'smtp://mail.example:587',
    );
  });

  it('needs SMTP_URL in hosted mode too: Supabase mails accounts, the morning verse is ours to send', () => {
    const hosted = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://lampstand.example',
      SUPABASE_URL: 'https://abcd.supabase.co',
      SUPABASE_ANON_KEY: 'anon',
      SUPABASE_SERVICE_ROLE_KEY: 'service',
      SUPABASE_JWKS_URL: 'https://abcd.supabase.co/auth/v1/.well-known/jwks.json',
    };
    expect(() => loadConfig(hosted)).toThrow(/SMTP_URL: required in production \(the morning verse email/);
    expect(loadConfig({ ...hosted, SMTP_URL: 'smtp://mail.example:587' }).identity.mode).toBe('hosted');
  });

  it.each([
    'smtp://mailpit:1025',
    'smtp://localhost:25',
    'smtp://127.0.0.1:587',
    'smtp://[::1]:587',
    'smtp://lampstand-mailpit-1:2525',
    'smtp://relay.example:1025',
  ])('refuses %s, a mail catcher that delivers nothing, unless SMTP_ALLOW_LOCAL says it is deliberate', (url) => {
    expect(() => loadConfig({ ...production, SMTP_URL: url })).toThrow(
      /SMTP_URL: .* looks like a local mail catcher .* SMTP_ALLOW_LOCAL=true/,
    );
    expect(loadConfig({ ...production, SMTP_URL: url, SMTP_ALLOW_LOCAL: 'true' }).mail.smtpUrl).toBe(url);
  });

  it('takes a relay whose name merely contains a catcher-like word, and any catcher outside production', () => {
    expect(loadConfig({ ...production, SMTP_URL: 'smtps://mailpitstop.example:465' }).mail.smtpUrl).toBeDefined();
    expect(loadConfig({ SMTP_URL: 'smtp://mailpit:1025' }).mail.smtpUrl).toBe('smtp://mailpit:1025');
    expect(() => loadConfig({ SMTP_ALLOW_LOCAL: 'maybe' })).toThrow(/SMTP_ALLOW_LOCAL: must be true or false/);
  });

  it('refuses the generated MFA key in production, and a key that is not 32 bytes', () => {
    const withSmtp = { ...production, SMTP_URL: 'smtp://mail.example:587' };
    expect(() => loadConfig({ ...withSmtp, AUTH_MFA_ENCRYPTION_KEY: undefined })).toThrow(
      /AUTH_MFA_ENCRYPTION_KEY: production refuses the generated development key/,
    );
    expect(() => loadConfig({ AUTH_MFA_ENCRYPTION_KEY: 'too-short' })).toThrow(/AUTH_MFA_ENCRYPTION_KEY/);
    expect(loadConfig(withSmtp).auth.mfa.encryptionKey?.length).toBe(32);
  });

  it('keeps the development outbox outside production', () => {
    expect(loadConfig({}).mail.smtpUrl).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'development' }).env).toBe('development');
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('is off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('reads booleans in any of the usual spellings', () => {
    expect(trust('true')).toBe(true);
    expect(trust('TRUE')).toBe(true);
    expect(trust('yes')).toBe(true);
    expect(trust('off')).toBe(false);
    expect(trust('False')).toBe(false);
  });

  it('reads a number as the count of proxy hops to believe, not as an address', () => {
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('0')).toBe(false);
  });

  it('reads addresses, CIDRs and proxy-addr range names', () => {
    expect(trust('10.0.0.1, 172.16.0.0/12,fd00::/8 ,loopback')).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else with a message naming the variable and the bad entries', () => {
    for (const value of ['maybe', '10.0.0.300', '10.0.0.0/33', 'proxy.example', '10.0.0.1,nope']) {
      expect(() => trust(value)).toThrow(ConfigError);
      expect(() => trust(value)).toThrow(/TRUST_PROXY: must be true, false, a number of proxy hops/);
    }
  });
});
