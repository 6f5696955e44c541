import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { PrayerRequestRecord } from '../../server/src/prayer/prayer.entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { uniqueEmail } from '../support/identity.js';
import { firstError, signUpMember } from '../support/members.js';
import type { SignedUpMember } from '../support/members.js';
import { INBOX, SEND_PRAYER, solvedProof, TURN_ON_PRAYER } from '../support/prayer.js';
import type { SmtpListener } from '../support/smtp.js';
import { actUntilHeard, subscriptionClient } from '../support/subscriptions.js';
import { startSmtpListener } from '../support/smtp.js';

let api: TestApp;
let smtp: SmtpListener;
/** The time the notices and the clean-up believe it is; each test moves it. */
let now = new Date();

beforeAll(async () => {
  smtp = await startSmtpListener();
  api = await startTestApp(
    { SMTP_URL: smtp.url },
    { clock: () => now, prayerLimits: { perAddress: 1000, perPage: 1000 }, prayerChallengeMax: 2000 },
  );
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

interface InboxData {
  prayerRequests: {
    id: string;
    body: string;
    firstName: string | null;
    keepPrivate: boolean;
    read: boolean;
    prayedAt: string | null;
    repliedAt: string | null;
    canReply: boolean;
  }[];
  unreadPrayerRequests: number;
}

/** A member whose page takes prayer requests. */
async function memberTakingRequests(target: TestApp = api, settings: Record<string, unknown> = {}) {
  const member = await signUpMember(target);
  const on = await target.graphql(
    TURN_ON_PRAYER,
    { input: { enabled: true, ...settings } },
    { token: member.session.accessToken },
  );
  expect(on.errors).toBeUndefined();
  return member;
}

async function send(member: SignedUpMember, input: Record<string, unknown> = {}, target: TestApp = api) {
  return target.graphql(SEND_PRAYER, {
    input: {
      username: member.member.profile.username,
      body: 'Please pray for my mother’s surgery on Friday.',
      proof: await solvedProof(target),
      ...input,
    },
  });
}

const stored = (uid: string) => api.dataSource.getRepository(PrayerRequestRecord).countBy({ uid });

const inbox = async (member: SignedUpMember) => {
  const response = await api.graphql<InboxData>(INBOX, {}, { token: member.session.accessToken });
  expect(response.errors).toBeUndefined();
  if (!response.data) throw new Error('no inbox');
  return response.data;
};

describe('sending a prayer request', () => {
  it('shows the button only when the member turned it on, and stores what a visitor sends', async () => {
    const member = await signUpMember(api);
    const page = `{ profile(username: "${member.member.profile.username}") { prayerButton { prompt } } }`;
    expect((await api.graphql<{ profile: { prayerButton: unknown } }>(page)).data?.profile.prayerButton).toBeNull();
    expect(firstError(await send(member)).code).toBe('NOT_FOUND');
    expect(await stored(member.member.user.uid)).toBe(0);

    await api.graphql(TURN_ON_PRAYER, { input: { enabled: true } }, { token: member.session.accessToken });
    const shown = await api.graphql<{ profile: { prayerButton: { prompt: string } } }>(page);
    expect(shown.data?.profile.prayerButton.prompt).toBe('How can I pray for you?');

    const response = await send(member, { firstName: 'Anna', keepPrivate: true, replyTo: uniqueEmail() });
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ sendPrayerRequest: true });
    const { prayerRequests, unreadPrayerRequests } = await inbox(member);
    expect(unreadPrayerRequests).toBe(1);
    expect(prayerRequests).toMatchObject([
      { body: 'Please pray for my mother’s surgery on Friday.', firstName: 'Anna', keepPrivate: true, canReply: true },
    ]);
  });

  it('refuses 1,001 characters with a coded error and stores nothing; 1,000 are fine', async () => {
    const member = await memberTakingRequests();
    const refused = await send(member, { body: 'a'.repeat(1001) });
    expect(firstError(refused)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.body' });
    expect(await stored(member.member.user.uid)).toBe(0);
    expect((await send(member, { body: '🙏'.repeat(1000) })).errors).toBeUndefined();
    const [request] = (await inbox(member)).prayerRequests;
    expect(Array.from(request?.body ?? '')).toHaveLength(1000);
  });

  it('answers a filled honeypot as if it were sent, and stores nothing', async () => {
    const member = await memberTakingRequests();
    const response = await send(member, { website: 'https://spam.example' });
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ sendPrayerRequest: true });
    expect(await stored(member.member.user.uid)).toBe(0);
  });

  it('refuses a missing, forged or reused proof of work', async () => {
    const member = await memberTakingRequests();
    expect(firstError(await send(member, { proof: 'bm90IGEgcHJvb2Y=' }))).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.proof',
    });
    const proof = await solvedProof(api);
    const forged = JSON.parse(Buffer.from(proof, 'base64').toString('utf8')) as { number: number };
    const wrong = Buffer.from(JSON.stringify({ ...forged, number: forged.number + 1 })).toString('base64');
    expect(firstError(await send(member, { proof: wrong })).field).toBe('input.proof');
    expect((await send(member, { proof })).errors).toBeUndefined();
    expect(firstError(await send(member, { proof })).field).toBe('input.proof');
    expect(await stored(member.member.user.uid)).toBe(1);
  });
});

describe('the limits per address and per page', () => {
  it('refuses a page over its hourly limit, then an address over its own', async () => {
    const limited = await startTestApp({}, { prayerLimits: { perAddress: 3, perPage: 2 }, prayerChallengeMax: 2000 });
    try {
      const first = await memberTakingRequests(limited);
      const second = await memberTakingRequests(limited);
      expect((await send(first, {}, limited)).errors).toBeUndefined();
      expect((await send(first, {}, limited)).errors).toBeUndefined();
      const page = firstError(await send(first, {}, limited));
      expect(page).toMatchObject({ code: 'RATE_LIMITED' });
      expect(page.message).toMatch(/This page has received many/);
      const address = firstError(await send(second, {}, limited));
      expect(address).toMatchObject({ code: 'RATE_LIMITED' });
      expect(address.message).toMatch(/You have sent several/);
      const count = await limited.dataSource.getRepository(PrayerRequestRecord).count();
      expect(count).toBe(2);
    } finally {
      await limited.close();
    }
  });
});

describe('the inbox', () => {
  it('is the owner’s alone: another member can neither read nor change a request', async () => {
    const owner = await memberTakingRequests();
    const stranger = await signUpMember(api);
    await send(owner);
    const [request] = (await inbox(owner)).prayerRequests;
    expect((await inbox(stranger)).prayerRequests).toEqual([]);
    for (const mutation of [
      `mutation { markPrayerRequestPrayed(id: "${request?.id ?? ''}") { id } }`,
      `mutation { deletePrayerRequest(id: "${request?.id ?? ''}") }`,
      `mutation { reportPrayerRequest(id: "${request?.id ?? ''}") }`,
      `mutation { replyToPrayerRequest(input: { id: "${request?.id ?? ''}", message: "Hi" }) { id } }`,
    ]) {
      expect(firstError(await api.graphql(mutation, {}, { token: stranger.session.accessToken })).code).toBe(
        'NOT_FOUND',
      );
    }
    expect(firstError(await api.graphql(INBOX)).code).toBe('UNAUTHENTICATED');
    expect(await stored(owner.member.user.uid)).toBe(1);
  });

  it('marks read and prayed for, reports (it leaves the inbox) and deletes', async () => {
    const member = await memberTakingRequests();
    now = new Date('2026-11-20T10:00:00Z');
    await send(member, { body: 'For my exams' });
    now = new Date('2026-11-20T10:05:00Z');
    await send(member, { body: 'Buy cheap pills' });
    const token = { token: member.session.accessToken };
    const [spam, exams] = (await inbox(member)).prayerRequests;
    expect(spam?.body).toBe('Buy cheap pills');
    expect((await api.graphql('mutation { markPrayerRequestsRead }', {}, token)).data).toEqual({
      markPrayerRequestsRead: 2,
    });
    expect((await inbox(member)).unreadPrayerRequests).toBe(0);
    const prayed = await api.graphql<{ markPrayerRequestPrayed: { prayedAt: string | null } }>(
      `mutation { markPrayerRequestPrayed(id: "${exams?.id ?? ''}") { prayedAt } }`,
      {},
      token,
    );
    expect(prayed.data?.markPrayerRequestPrayed.prayedAt).not.toBeNull();
    await api.graphql(`mutation { reportPrayerRequest(id: "${spam?.id ?? ''}") }`, {}, token);
    expect((await inbox(member)).prayerRequests.map((request) => request.body)).toEqual(['For my exams']);
    await api.graphql(`mutation { deletePrayerRequest(id: "${exams?.id ?? ''}") }`, {}, token);
    expect((await inbox(member)).prayerRequests).toEqual([]);
  });

  it('mails a reply to the visitor, whose address no answer ever carries', async () => {
    const member = await memberTakingRequests();
    const visitor = uniqueEmail();
    const sent = await send(member, { replyTo: visitor, firstName: 'Tom' });
    const token = { token: member.session.accessToken };
    const answers = [JSON.stringify(sent)];
    const listed = await api.graphql<InboxData>(INBOX, {}, token);
    answers.push(JSON.stringify(listed));
    const id = listed.data?.prayerRequests[0]?.id ?? '';
    const reply = await api.graphql(
      'mutation ($input: PrayerReplyInput!) { replyToPrayerRequest(input: $input) { id repliedAt canReply } }',
      { input: { id, message: 'I am praying for you, Tom.' } },
      token,
    );
    expect(reply.errors).toBeUndefined();
    answers.push(JSON.stringify(reply));
    answers.push(JSON.stringify(await api.graphql('{ myData }', {}, token)));
    const mail = await smtp.nextMessage(visitor);
    expect(mail.subject).toMatch(/replied to your prayer request$/);
    expect(mail.body).toContain('I am praying for you, Tom.');
    expect(mail.body).not.toContain(member.email);
    for (const answer of answers) expect(answer).not.toContain(visitor);
  });
});

describe('mail to the member, retention, export and deletion', () => {
  it('tells the member at most once an hour, and a Plus digest once a day', async () => {
    now = new Date('2026-11-20T10:00:00Z');
    const member = await memberTakingRequests();
    await send(member);
    await send(member);
    await api.app.prayerNotices.sendDue();
    const notice = await smtp.nextMessage(member.email);
    expect(notice.subject).toBe('You have 2 new prayer requests');
    expect(notice.body).not.toContain('mother’s surgery');
    await send(member);
    now = new Date('2026-11-20T10:30:00Z');
    await api.app.prayerNotices.sendDue();
    now = new Date('2026-11-20T11:01:00Z');
    await api.app.prayerNotices.sendDue();
    expect((await smtp.nextMessage(member.email)).subject).toBe('You have a new prayer request');
    expect(smtp.messages.filter((mail) => mail.to.includes(member.email))).toHaveLength(2);

    await api.dataSource.getRepository(UserRecord).update({ uid: member.member.user.uid }, { stripeRole: 'plus' });
    const digest = await api.graphql(
      TURN_ON_PRAYER,
      { input: { enabled: true, dailyDigest: true, prompt: 'Tell me' } },
      {
        token: member.session.accessToken,
      },
    );
    expect(digest.errors).toBeUndefined();
    await send(member);
    now = new Date('2026-11-20T13:00:00Z');
    await api.app.prayerNotices.sendDue();
    expect(smtp.messages.filter((mail) => mail.to.includes(member.email))).toHaveLength(2);
    now = new Date('2026-11-21T11:02:00Z');
    await api.app.prayerNotices.sendDue();
    expect((await smtp.nextMessage(member.email)).body).toContain('since yesterday');
  });

  it('needs Plus for a prompt and the digest', async () => {
    const member = await signUpMember(api);
    const response = await api.graphql(
      TURN_ON_PRAYER,
      { input: { enabled: true, prompt: 'Hello' } },
      {
        token: member.session.accessToken,
      },
    );
    expect(firstError(response).code).toBe('PLUS_REQUIRED');
  });

  it('deletes requests older than the member’s choice', async () => {
    now = new Date('2026-01-01T00:00:00Z');
    const short = await memberTakingRequests(api, { retentionDays: 30 });
    const standard = await memberTakingRequests();
    await send(short);
    await send(standard);
    now = new Date('2026-02-15T00:00:00Z');
    await api.app.prayerNotices.prune();
    expect(await stored(short.member.user.uid)).toBe(0);
    expect(await stored(standard.member.user.uid)).toBe(1);
    now = new Date('2026-04-15T00:00:00Z');
    await api.app.prayerNotices.prune();
    expect(await stored(standard.member.user.uid)).toBe(0);
  });

  it('puts the requests in the member’s data export, and deletes them with the account', async () => {
    now = new Date();
    const member = await memberTakingRequests();
    await send(member, { body: 'For peace at home', replyTo: uniqueEmail() });
    const token = { token: member.session.accessToken };
    const exported = await api.graphql<{ myData: string }>('{ myData }', {}, token);
    const data = JSON.parse(exported.data?.myData ?? '{}') as { prayerRequests: { requests: { body: string }[] } };
    expect(data.prayerRequests.requests.map((request) => request.body)).toEqual(['For peace at home']);
    const gone = await api.graphql(
      'mutation ($password: String!) { deleteAccount(password: $password) }',
      {
        password: member.password,
      },
      token,
    );
    expect(gone.errors).toBeUndefined();
    expect(await stored(member.member.user.uid)).toBe(0);
  });
});

describe('a prayer request arriving live', () => {
  const RECEIVED = 'subscription { prayerRequestReceived { id body canReply } }';
  interface Received {
    prayerRequestReceived: { id: string; body: string; canReply: boolean };
  }

  it('reaches the member it was sent to as it is stored, and no other member', async () => {
    const member = await memberTakingRequests();
    const other = await memberTakingRequests();
    const mine = subscriptionClient(api.url, member.session.accessToken);
    const theirs = subscriptionClient(api.url, other.session.accessToken);
    try {
      // The other member's subscription hears its own requests first, so it is known to be listening.
      const overheard = theirs.subscribe<Received>(RECEIVED);
      await actUntilHeard(overheard, () => send(other, { body: 'Pray for our church’s new roof.' }));
      const heard = mine.subscribe<Received>(RECEIVED);
      await actUntilHeard(heard, (attempt) =>
        send(member, { body: `Please pray for my family (${attempt}).`, replyTo: uniqueEmail() }),
      );
      const received = heard.results[0]?.data?.prayerRequestReceived;
      expect(received?.body).toMatch(/^Please pray for my family/);
      expect(received?.canReply).toBe(true);
      expect((await inbox(member)).prayerRequests.map((request) => request.id)).toContain(received?.id);
      const theirIds = (await inbox(other)).prayerRequests.map((request) => request.id);
      for (const result of overheard.results) {
        expect(theirIds).toContain(result.data?.prayerRequestReceived.id);
      }
    } finally {
      await mine.dispose();
      await theirs.dispose();
    }
  });

  it('is refused without signing in', async () => {
    const anonymous = subscriptionClient(api.url);
    try {
      const heard = anonymous.subscribe<Received>(RECEIVED);
      while (!heard.completed && heard.errors.length === 0) expect(await heard.next()).toBe(true);
      const refusal = heard.results[0]?.errors?.[0] ?? (heard.errors[0] as { extensions?: unknown }[])[0];
      expect(refusal?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(heard.results.some((result) => result.data?.prayerRequestReceived)).toBe(false);
    } finally {
      await anonymous.dispose();
    }
  });
});
