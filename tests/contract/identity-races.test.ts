import type { Session } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD, anonClient, serviceClient, uniqueEmail } from '../support/identity.js';
import type { SmtpListener } from '../support/smtp.js';
import { startSmtpListener } from '../support/smtp.js';

/**
 * Writes to one account that overlap in time. Sign-ins and password changes spend tens of
 * milliseconds hashing before they write; whatever another request wrote meanwhile must survive.
 * Each race is run many times, the second request starting at points spread over the first one's
 * run, so that it lands before, during and after the first one's write.
 */
const ROUNDS = 24;
const NEW_PASSWORD = 'a brand new passphrase 42';

let api: TestApp;
/** How long a password sign-in takes here, measured once: the span the delays are spread over. */
let signInMs: number;

beforeAll(async () => {
  api = await startTestApp({
    AUTH_RATE_LIMIT_TOKEN: '100000',
    AUTH_RATE_LIMIT_TOKEN_BURST: '100000',
    AUTH_RATE_LIMIT_OTP: '100000',
  });
  const { email } = await confirmedUser();
  const started = performance.now();
  await signIn(email, GOOD_PASSWORD);
  signInMs = performance.now() - started;
});
afterAll(async () => {
  await api.close();
});

async function confirmedUser(): Promise<{ id: string; email: string }> {
  const email = uniqueEmail('race');
  const { data, error } = await serviceClient(api).auth.admin.createUser({
    email,
    password: GOOD_PASSWORD,
    email_confirm: true,
  });
  if (error) throw error;
  return { id: data.user.id, email };
}

async function signIn(email: string, password: string): Promise<Session> {
  const { data, error } = await anonClient(api).auth.signInWithPassword({ email, password });
  if (error) throw error;
  return data.session;
}

/** The delay of round `round`: from 0 to 1.5 times a sign-in, in even steps. */
const delayOf = (round: number): number => (round * 1.5 * signInMs) / ROUNDS;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `first`, and `second` after `delayMs`; both to the end, whatever either does. */
async function race<A, B>(first: () => Promise<A>, second: () => Promise<B>, delayMs: number): Promise<[A, B]> {
  return Promise.all([first(), sleep(delayMs).then(second)]);
}

async function writeClaim(id: string): Promise<void> {
  const { error } = await serviceClient(api).auth.admin.updateUserById(id, { app_metadata: { stripeRole: 'plus' } });
  if (error) throw error;
}

async function claimOf(id: string): Promise<unknown> {
  const { data, error } = await serviceClient(api).auth.admin.getUserById(id);
  if (error) throw error;
  return data.user.app_metadata.stripeRole;
}

describe('concurrent writes to one account', () => {
  it('keeps app_metadata written by an admin while the user signs in', async () => {
    const lost: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { id, email } = await confirmedUser();
      await race(
        () => signIn(email, GOOD_PASSWORD),
        () => writeClaim(id),
        delayOf(round),
      );
      if ((await claimOf(id)) !== 'plus') lost.push(round);
    }
    expect(lost, 'rounds in which the claim was lost').toEqual([]);
  });

  it('keeps app_metadata written by an admin while the user changes their password', async () => {
    const lost: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { id, email } = await confirmedUser();
      const client = anonClient(api);
      await client.auth.setSession(await signIn(email, GOOD_PASSWORD));
      await race(
        async () => {
          const { error } = await client.auth.updateUser({ password: NEW_PASSWORD });
          if (error) throw error;
        },
        () => writeClaim(id),
        delayOf(round),
      );
      if ((await claimOf(id)) !== 'plus') lost.push(round);
    }
    expect(lost, 'rounds in which the claim was lost').toEqual([]);
  });

  it('keeps app_metadata written by one admin call while another changes the password', async () => {
    const lost: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { id } = await confirmedUser();
      await race(
        async () => {
          const { error } = await serviceClient(api).auth.admin.updateUserById(id, { password: NEW_PASSWORD });
          if (error) throw error;
        },
        () => writeClaim(id),
        delayOf(round),
      );
      if ((await claimOf(id)) !== 'plus') lost.push(round);
    }
    expect(lost, 'rounds in which the claim was lost').toEqual([]);
  });

  it('never brings back the old password, nor keeps a session it opened, when a sign-in with it races a password change', async () => {
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { id, email } = await confirmedUser();
      const [racing] = await race(
        () => anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD }),
        async () => {
          const { error } = await serviceClient(api).auth.admin.updateUserById(id, { password: NEW_PASSWORD });
          if (error) throw error;
        },
        delayOf(round),
      );
      const old = await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
      if (!old.error) failures.push(`round ${round}: the old password works again`);
      const fresh = await anonClient(api).auth.signInWithPassword({ email, password: NEW_PASSWORD });
      if (fresh.error) failures.push(`round ${round}: the new password does not work (${fresh.error.code})`);
      if (racing.data.session) {
        const stillThere = await anonClient(api).auth.getUser(racing.data.session.access_token);
        if (!stillThere.error) failures.push(`round ${round}: the old password's session outlived the change`);
      } else if (racing.error?.code !== 'invalid_credentials') {
        failures.push(`round ${round}: the racing sign-in failed with ${racing.error?.code}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('recovery requests for one address at once', () => {
  let smtp: SmtpListener;
  /** Confirmation on, mail over real SMTP, Supabase Auth's default one-minute mail frequency. */
  let mailing: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpListener();
    mailing = await startTestApp({ SMTP_URL: smtp.url, AUTH_AUTOCONFIRM: 'false', AUTH_SMTP_MAX_FREQUENCY: '60' });
  });
  afterAll(async () => {
    await mailing.close();
    await smtp.close();
  });

  it('send one mail: the per-address frequency holds for requests that overlap', async () => {
    const email = uniqueEmail('recover');
    await serviceClient(mailing).auth.admin.createUser({ email, password: GOOD_PASSWORD, email_confirm: true });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => anonClient(mailing).auth.resetPasswordForEmail(email)),
    );
    expect(answers.map((answer) => answer.error)).toEqual([null, null, null, null]);
    await smtp.nextMessage(email);
    await expect(smtp.nextMessage(email, 1000)).rejects.toThrow(/no mail/);
    expect(smtp.messages.filter((message) => message.to.includes(email))).toHaveLength(1);
  });
});
