import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityClient, IdentityError } from '../../server/src/identity/identity.client.js';
import { freePort, startTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { faultyFetch } from '../support/faults.js';
import { GOOD_PASSWORD, decodeClaims, uniqueEmail } from '../support/identity.js';

let api: TestApp;
let identity: IdentityClient;
beforeAll(async () => {
  api = await startTestApp();
  identity = api.app.identity.client;
});
afterAll(async () => {
  await api.close();
});

describe('the server identity module (supabase-js underneath)', () => {
  it('signs up, signs in and refreshes, mapping sessions to camelCase', async () => {
    const email = uniqueEmail();
    const { user, session } = await identity.signUp({ email, password: GOOD_PASSWORD, data: { first: 'Priscilla' } });
    expect(user).toMatchObject({ email, emailConfirmedAt: expect.any(String), userMetadata: { first: 'Priscilla' } });
    expect(session).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 3600,
    });
    const signedIn = await identity.signInWithPassword({ email, password: GOOD_PASSWORD });
    const refreshed = await identity.refreshSession(signedIn.refreshToken);
    expect(refreshed.refreshToken).not.toBe(signedIn.refreshToken);
    expect(refreshed.user.id).toBe(user.id);
  });

  it("signs in concurrent callers, each request carrying its own caller's address", async () => {
    const [first, second] = [uniqueEmail(), uniqueEmail()];
    const [one, two] = await Promise.all(
      [first, second].map((email) => identity.signUp({ email, password: GOOD_PASSWORD })),
    );
    const sent: { body: unknown; headers: Record<string, string> }[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push({ body: JSON.parse(init?.body as string), headers: { ...(init?.headers as Record<string, string>) } });
      return fetch(input, init);
    };
    const client = new IdentityClient({ url: api.url, anonKey: 'anon', serviceRoleKey: 'service', fetch: recording });
    const addresses: Record<string, string | undefined> = { [first]: '203.0.113.1', [second]: '203.0.113.2' };
    const sessions = await Promise.all(
      [first, second, first].map((email, index) =>
        client.signInWithPassword(
          { email, password: GOOD_PASSWORD },
          index === 2 ? {} : { clientIp: addresses[email] },
        ),
      ),
    );
    expect(sessions.map((session) => session.user.id)).toEqual([one?.user.id, two?.user.id, one?.user.id]);
    expect(sent).toHaveLength(3);
    sent.forEach(({ body, headers }, index) => {
      expect(body).toMatchObject({ email: [first, second, first][index] });
      expect(headers.Authorization).toBe('Bearer anon');
      if (index === 2) {
        expect(headers).not.toHaveProperty('Sb-Forwarded-For');
        expect(headers.apikey).toBe('anon');
      } else {
        expect(headers['Sb-Forwarded-For']).toBe(addresses[[first, second][index] ?? '']);
        expect(headers.apikey).toBe('service');
      }
    });
  });

  it('raises IdentityError with Supabase Auth codes', async () => {
    await expect(
      identity.signInWithPassword({ email: uniqueEmail(), password: 'whatever it is' }),
    ).rejects.toMatchObject({
      name: 'IdentityError',
      status: 400,
      code: 'invalid_credentials',
    });
    await expect(identity.signUp({ email: uniqueEmail(), password: 'short' })).rejects.toMatchObject({
      status: 422,
      code: 'weak_password',
      reasons: ['length'],
    });
  });

  it('updates the caller with only an access token, and changing the password ends the other sessions', async () => {
    const email = uniqueEmail();
    const { session } = await identity.signUp({ email, password: GOOD_PASSWORD });
    const other = await identity.signInWithPassword({ email, password: GOOD_PASSWORD });
    const accessToken = session?.accessToken ?? '';
    const updated = await identity.updateUser(
      { accessToken },
      { password: 'a fresh passphrase', data: { city: 'Corinth' } },
    );
    expect(updated.userMetadata).toMatchObject({ city: 'Corinth' });
    await expect(identity.getUser(other.accessToken)).rejects.toMatchObject({ status: 401, code: 'session_not_found' });
    await expect(identity.getUser(accessToken)).resolves.toMatchObject({ email });
  });

  it('signs out, treating an already-ended session as done', async () => {
    const { session } = await identity.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD });
    const accessToken = session?.accessToken ?? '';
    await identity.signOut(accessToken, 'local');
    await expect(identity.signOut(accessToken, 'local')).resolves.toBeUndefined();
    await expect(identity.getUser(accessToken)).rejects.toMatchObject({ code: 'session_not_found' });
  });

  it('writes app_metadata as admin so that the next token carries stripeRole', async () => {
    const { user, session } = await identity.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD });
    await identity.updateUserById(user.id, { appMetadata: { stripeRole: 'plus' } });
    const refreshed = await identity.refreshSession(session?.refreshToken ?? '');
    expect(decodeClaims(refreshed.accessToken).app_metadata).toMatchObject({ stripeRole: 'plus' });
    const verified = await api.app.identity.verifier.verify(refreshed.accessToken);
    expect(verified.stripeRole).toBe('plus');
  });

  it('answers the same for a known and an unknown address when asked to reset a password', async () => {
    const email = uniqueEmail();
    await identity.signUp({ email, password: GOOD_PASSWORD });
    await expect(identity.resetPasswordForEmail(email)).resolves.toBeUndefined();
    await expect(identity.resetPasswordForEmail(uniqueEmail())).resolves.toBeUndefined();
  });

  it('fails closed with identity_unavailable when the identity service cannot be reached', async () => {
    const offline = new IdentityClient({
      url: `http://127.0.0.1:${await freePort()}`,
      anonKey: 'anon',
      serviceRoleKey: 'service',
      // Longer than the test may take: the refused connection must end the call, not the timeout.
      timeoutMs: 3_600_000,
    });
    const error: unknown = await offline
      .signInWithPassword({ email: uniqueEmail(), password: GOOD_PASSWORD })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdentityError);
    expect(error).toMatchObject({ status: 503, code: 'identity_unavailable' });
  });

  it('gives up on an identity service that accepts the request but never answers, after its timeout', async () => {
    const stalled = faultyFetch({ matches: () => true, fault: 'hang' });
    const slow = new IdentityClient({
      url: api.url,
      anonKey: 'anon',
      serviceRoleKey: 'service',
      timeoutMs: 1000,
      fetch: stalled.fetch,
    });
    const started = Date.now();
    const error: unknown = await slow
      .signInWithPassword({ email: uniqueEmail(), password: GOOD_PASSWORD })
      .catch((caught: unknown) => caught);
    const elapsed = Date.now() - started;
    expect(stalled.calls).toBe(1);
    expect(error).toMatchObject({ name: 'IdentityError', status: 503, code: 'identity_unavailable' });
    // Its own timeout ended the request (not the test's); how soon after, a busy machine decides.
    expect(stalled.endedBy).toBe('TimeoutError');
    expect(elapsed).toBeGreaterThanOrEqual(950);
  });
});
