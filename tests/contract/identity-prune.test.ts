import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthOneTimeTokenRecord, AuthRefreshTokenRecord } from '../../server/src/identity/embedded/entities.js';
import { AuthFlowStateRecord } from '../../server/src/identity/embedded/flow-state.entity.js';
import { pruneExpired } from '../../server/src/identity/embedded/sessions.js';
import { MailOutboxRecord } from '../../server/src/mail/outbox.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD, anonClient, identityFetch, uniqueEmail } from '../support/identity.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('pruning expired identity records', () => {
  it('deletes rotated refresh tokens after a day, and emailed tokens and outbox mail once expired, keeping live ones', async () => {
    const email = uniqueEmail('prune');
    const client = anonClient(api);
    const { data } = await client.auth.signUp({ email, password: GOOD_PASSWORD });
    const userId = data.user?.id ?? '';
    const rotated = await client.auth.refreshSession();
    const live = rotated.data.session?.refresh_token ?? '';
    await client.auth.resetPasswordForEmail(email);
    const { manager } = api.dataSource;
    await until(async () => (await manager.countBy(MailOutboxRecord, { recipient: email })) > 0);
    const counts = async () => ({
      refreshTokens: await manager.countBy(AuthRefreshTokenRecord, { userId }),
      revoked: await manager.countBy(AuthRefreshTokenRecord, { userId, revoked: true }),
      oneTimeTokens: await manager.countBy(AuthOneTimeTokenRecord, { userId }),
      outbox: await manager.countBy(MailOutboxRecord, { recipient: email }),
    });
    expect(await counts()).toEqual({ refreshTokens: 2, revoked: 1, oneTimeTokens: 1, outbox: 1 });

    // Now: the rotated token is kept (replays must still end the session), the link still works.
    await pruneExpired(api.dataSource, api.config.auth);
    expect(await counts()).toEqual({ refreshTokens: 2, revoked: 1, oneTimeTokens: 1, outbox: 1 });

    const later = new Date(Date.now() + DAY_MS + api.config.auth.otpExp * 1000);
    const report = await pruneExpired(api.dataSource, api.config.auth, later);
    expect(report.refreshTokens).toBeGreaterThanOrEqual(1);
    expect(await counts()).toEqual({ refreshTokens: 1, revoked: 0, oneTimeTokens: 0, outbox: 0 });
    // The session goes on with its live refresh token.
    const again = await anonClient(api).auth.refreshSession({ refresh_token: live });
    expect(again.error).toBeNull();
  });

  it('deletes PKCE flows once their links have expired', async () => {
    const email = uniqueEmail('prune-pkce');
    const { data } = await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const userId = data.user?.id ?? '';
    const challenge = 'a-plain-challenge-of-enough-length-for-pkce-rules';
    const asked = await identityFetch(api, '/otp', {
      body: { email, code_challenge: challenge, code_challenge_method: 'plain' },
    });
    expect(asked.status).toBe(200);
    const flows = () => api.dataSource.manager.countBy(AuthFlowStateRecord, { userId });
    expect(await flows()).toBe(1);
    await pruneExpired(api.dataSource, api.config.auth);
    expect(await flows()).toBe(1);
    const later = new Date(Date.now() + api.config.auth.otpExp * 1000 + 1000);
    const report = await pruneExpired(api.dataSource, api.config.auth, later);
    expect(report.flowStates).toBeGreaterThanOrEqual(1);
    expect(await flows()).toBe(0);
  });
});
