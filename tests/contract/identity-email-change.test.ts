import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { In } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthOneTimeTokenRecord } from '../../server/src/identity/embedded/entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD, anonClient, identityFetch, serviceClient, uniqueEmail } from '../support/identity.js';

/** What the mail server saw: each link token, and whether the service had recorded it by then. */
const delivered = new Map<string, { tokenHash: string; recordedAtDelivery: boolean }[]>();
/** Recipients the mail server refuses, as a full mailbox would. */
const refused = new Set<string>();
let smtp: SMTPServer;
let api: TestApp;

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

async function isRecorded(tokenHash: string): Promise<boolean> {
  return (await api.dataSource.manager.countBy(AuthOneTimeTokenRecord, { tokenHash: sha256(tokenHash) })) > 0;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(refused.has(address.address) ? new Error('mailbox unavailable') : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const body = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        const tokenHash = /verify\?token=([0-9a-f]{56})/.exec(body)?.[1] ?? '';
        // Answer only after looking, so the service cannot record the token meanwhile.
        void isRecorded(tokenHash).then((recordedAtDelivery) => {
          for (const { address } of session.envelope.rcptTo) {
            delivered.set(address, [...(delivered.get(address) ?? []), { tokenHash, recordedAtDelivery }]);
          }
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  // The embedded defaults (autoconfirm and secure email change on), with mail over SMTP.
  api = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  await api.close();
  await new Promise<void>((resolve) => {
    smtp.close(resolve);
  });
});

async function signedIn(): Promise<{ email: string; id: string; client: ReturnType<typeof anonClient> }> {
  const email = uniqueEmail('old');
  const client = anonClient(api);
  const { data, error } = await client.auth.signUp({ email, password: GOOD_PASSWORD });
  if (error || !data.user) throw error ?? new Error('no user');
  return { email, id: data.user.id, client };
}

async function storedEmail(id: string): Promise<string | undefined> {
  return (await serviceClient(api).auth.admin.getUserById(id)).data.user?.email;
}

describe('email change with the default settings (autoconfirm on)', () => {
  it('needs the links mailed to both addresses, whichever is followed first (deviation from Supabase Auth)', async () => {
    const { email, id, client } = await signedIn();
    const newEmail = uniqueEmail('new');
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();
    const [toCurrent] = delivered.get(email) ?? [];
    const [toNew] = delivered.get(newEmail) ?? [];
    expect(toCurrent && toNew).toBeTruthy();

    const first = await identityFetch(api, '/verify', { body: { type: 'email_change', token_hash: toNew?.tokenHash } });
    expect(first.body).toEqual({
      msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
      code: '200',
    });
    expect(await storedEmail(id)).toBe(email);

    const second = await identityFetch(api, '/verify', {
      body: { type: 'email_change', token_hash: toCurrent?.tokenHash },
    });
    expect(second.status).toBe(200);
    expect(await storedEmail(id)).toBe(newEmail);
  });

  it('records both links before mailing them, so they work on arrival', async () => {
    const { email, client } = await signedIn();
    const newEmail = uniqueEmail('new');
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();
    expect(delivered.get(newEmail)?.map((mail) => mail.recordedAtDelivery)).toEqual([true]);
    expect(delivered.get(email)?.map((mail) => mail.recordedAtDelivery)).toEqual([true]);
  });

  it('leaves no usable link and no pending change when a message cannot be sent, so a retry is not held back', async () => {
    const { id, client } = await signedIn();
    const unreachable = uniqueEmail('full');
    refused.add(unreachable);
    const failed = await client.auth.updateUser({ email: unreachable });
    expect(failed.error).toMatchObject({ status: 500 });
    const tokens = await api.dataSource.manager.countBy(AuthOneTimeTokenRecord, {
      userId: id,
      tokenType: In(['email_change_token_current', 'email_change_token_new']),
    });
    expect(tokens).toBe(0);
    expect((await serviceClient(api).auth.admin.getUserById(id)).data.user).not.toHaveProperty('new_email');

    const retry = await client.auth.updateUser({ email: uniqueEmail('new') });
    expect(retry.error).toBeNull();
  });
});
