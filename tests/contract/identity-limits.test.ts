import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailOutboxRecord } from '../../server/src/mail/outbox.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  GOOD_PASSWORD,
  anonClient,
  identityFetch,
  identityKeys,
  uniqueEmail,
  withDatabase,
} from '../support/identity.js';

/** Three token grants per minute, two sign-ups and two verifications per 5 minutes, one mail per hour. */
const tight = {
  AUTH_RATE_LIMIT_TOKEN: '15',
  AUTH_RATE_LIMIT_TOKEN_BURST: '3',
  AUTH_RATE_LIMIT_OTP: '2',
  AUTH_RATE_LIMIT_VERIFY: '2',
};

let direct: TestApp;
let proxied: TestApp;
let mailing: TestApp;
beforeAll(async () => {
  [direct, proxied, mailing] = await Promise.all([
    startTestApp(tight),
    startTestApp({ ...tight, TRUST_PROXY: '127.0.0.1' }),
    startTestApp({ AUTH_AUTOCONFIRM: 'false', AUTH_RATE_LIMIT_EMAIL_SENT: '1', AUTH_SMTP_MAX_FREQUENCY: '0' }),
  ]);
});
afterAll(async () => {
  await Promise.all([direct.close(), proxied.close(), mailing.close()]);
});

const login = (api: TestApp, headers: Record<string, string> = {}) =>
  identityFetch(api, '/token?grant_type=password', {
    body: { email: 'nobody@example.org', password: 'wrong password' },
    headers,
  });

describe('per-address rate limits', () => {
  it('§6.3 limits token grants by client address with over_request_rate_limit', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push((await login(direct)).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const limited = await login(direct);
    expect(limited.body).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });
  });

  it('§6.3 does not let a spoofed X-Forwarded-For dodge the limit when no proxy is trusted', async () => {
    const response = await login(direct, { 'x-forwarded-for': '203.0.113.77' });
    expect(response.status).toBe(429);
  });

  it('§6.3 limits by the forwarded address when the proxy is trusted', async () => {
    for (let attempt = 0; attempt < 3; attempt++) await login(proxied, { 'x-forwarded-for': '198.51.100.1' });
    expect((await login(proxied, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429);
    expect((await login(proxied, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(400);
  });

  it('§6.3 believes Sb-Forwarded-For only from a caller holding the service-role key', async () => {
    const { anonKey, serviceRoleKey } = identityKeys(direct);
    const vouched = await login(direct, { 'sb-forwarded-for': '192.0.2.10', apikey: serviceRoleKey });
    expect(vouched.status).toBe(400);
    const unvouched = await login(direct, { 'sb-forwarded-for': '192.0.2.11', apikey: anonKey });
    expect(unvouched.status).toBe(429);
  });

  it('§6.3 limits sign-ups per address (the OTP limit)', async () => {
    const results = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      results.push((await anonClient(direct).auth.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD })).error);
    }
    expect(results.slice(0, 2)).toEqual([null, null]);
    expect(results[2]).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('§6.3 limits verification attempts per address', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      statuses.push(
        (await identityFetch(direct, '/verify', { body: { type: 'signup', token_hash: 'f'.repeat(56) } })).status,
      );
    }
    expect(statuses).toEqual([403, 403, 429]);
  });
});

describe('mail limits and the development outbox', () => {
  it('§6.3 keeps mail in the outbox and stops at the global hourly limit with over_email_send_rate_limit', async () => {
    const first = uniqueEmail();
    expect((await anonClient(mailing).auth.signUp({ email: first, password: GOOD_PASSWORD })).error).toBeNull();
    const outbox = await withDatabase(mailing, async (dataSource) => {
      // Confirmation mail goes out after the answer; give it a moment.
      for (let attempt = 0; attempt < 50; attempt++) {
        const found = await dataSource.getRepository(MailOutboxRecord).findOneBy({ recipient: first });
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return null;
    });
    expect(outbox).toMatchObject({
      subject: 'Confirm your Lampstand account',
      link: expect.stringContaining('/auth/v1/verify?token='),
    });

    const { error } = await anonClient(mailing).auth.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD });
    expect(error).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: 'email rate limit exceeded',
    });
  });
});
