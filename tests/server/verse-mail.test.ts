import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verseCalendar } from '../../server/src/verses/calendar.js';
import { VerseMailSendRecord, VerseMailSubscriptionRecord } from '../../server/src/verse-mail/verse-mail.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';
import { GOOD_PASSWORD, serviceClient, uniqueEmail } from '../support/identity.js';
import { firstError, signUpMember } from '../support/members.js';
import type { ReceivedMail, SmtpListener } from '../support/smtp.js';
import { startSmtpListener } from '../support/smtp.js';

let api: TestApp;
let smtp: SmtpListener;
/** The time the mail job sees; each test moves it. */
let now = new Date();
let refusing = false;

beforeAll(async () => {
  smtp = await startSmtpListener({ refuse: () => refusing });
  api = await startTestApp({ SMTP_URL: smtp.url, AUTH_RATE_LIMIT_OTP: '1000' }, { clock: () => now });
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});
beforeEach(() => {
  refusing = false;
});

const SUBSCRIBE = `mutation ($input: VerseMailInput!) { subscribeVerseMail(input: $input) { enabled hour timeZone } }`;

/** Mails received by `to` so far (the sign-up's own mail aside). */
const verseMailsTo = (to: string): ReceivedMail[] =>
  smtp.messages.filter((mail) => mail.to.includes(to) && mail.subject.startsWith('Your verse for'));

/** A member who asked, on the evening of 25 November 2026 in Oslo, for the verse at 7 each morning. */
async function subscribedMember(hour = 7) {
  now = new Date('2026-11-25T19:00:00Z');
  const member = await signUpMember(api);
  const response = await api.graphql(
    SUBSCRIBE,
    { input: { hour, timeZone: 'Europe/Oslo' } },
    { token: member.session.accessToken },
  );
  expect(response.errors).toBeUndefined();
  return member;
}

/** Removes everyone else's subscriptions, so that each test counts only its own members' mail. */
async function onlyThese(uids: string[]) {
  const all = await api.dataSource.getRepository(VerseMailSubscriptionRecord).find();
  for (const record of all) {
    if (!uids.includes(record.uid))
      await api.dataSource.getRepository(VerseMailSubscriptionRecord).delete({ uid: record.uid });
  }
}

describe('the verse by mail each morning', () => {
  it("sends the next morning's verse at the member's hour, once, with a one-click unsubscribe", async () => {
    const { email, member } = await subscribedMember();
    await onlyThese([member.user.uid]);
    now = new Date('2026-11-26T05:59:00Z'); // 06:59 in Oslo
    expect((await api.app.verseMail.sendDue()).sent).toBe(0);
    expect(verseMailsTo(email)).toHaveLength(0);

    now = new Date('2026-11-26T06:01:00Z'); // 07:01 in Oslo
    const reports = await Promise.all([api.app.verseMail.sendDue(), api.app.verseMail.sendDue()]);
    expect(reports.map((report) => report.sent).sort()).toEqual([0, 1]);
    now = new Date('2026-11-26T09:00:00Z');
    expect((await api.app.verseMail.sendDue()).sent).toBe(0);

    const mails = verseMailsTo(email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const day = await api.graphql<{ verseOfTheDay: { id: string; ref: string; text: string } }>(
      '{ verseOfTheDay(date: "2026-11-26") { id ref text } }',
    );
    expect(day.data?.verseOfTheDay.id).toBe(verseCalendar['11-26']);
    expect(mail?.subject).toBe(`Your verse for 26 November 2026: ${day.data?.verseOfTheDay.ref ?? ''}`);
    expect(mail?.body).toContain(day.data?.verseOfTheDay.text.slice(0, 40));
    // Read as sent: decoding quoted-printable would eat a token starting with "=" and two hex digits.
    const headers = mail?.headers ?? '';
    expect(headers).toMatch(
      /^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/verse-mail\/unsubscribe\?token=[\w-]{43}>/m,
    );
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

    // One click, as a mail client does it (RFC 8058), without signing in.
    const link = /^List-Unsubscribe: <([^>]+)>/m.exec(headers)?.[1] ?? '';
    const preview = await fetch(link);
    expect(preview.status).toBe(200);
    expect(await api.dataSource.getRepository(VerseMailSubscriptionRecord).countBy({ uid: member.user.uid })).toBe(1);
    const click = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(click.status).toBe(200);
    expect(await api.dataSource.getRepository(VerseMailSubscriptionRecord).countBy({ uid: member.user.uid })).toBe(0);

    now = new Date('2026-11-27T06:30:00Z');
    await api.app.verseMail.sendDue();
    expect(verseMailsTo(email)).toHaveLength(1);
  });

  it('sends in the translation of the member’s page', async () => {
    const { email, member, session } = await subscribedMember();
    await onlyThese([member.user.uid]);
    await api.graphql(
      'mutation { updateProfile(input: { translation: WEB }) { translation } }',
      {},
      { token: session.accessToken },
    );
    now = new Date('2028-02-29T06:10:00Z');
    await api.app.verseMail.sendDue();
    const [mail] = verseMailsTo(email);
    expect(mail?.subject).toBe('Your verse for 29 February 2028: Psalm 118:24');
    expect(mail?.body).toContain('This is the day that Yahweh has made.');
    expect(mail?.body).toContain('World English Bible');
  });

  it('tries a refused send again later instead of losing it', async () => {
    const { email, member } = await subscribedMember();
    await onlyThese([member.user.uid]);
    refusing = true;
    now = new Date('2026-11-26T06:05:00Z');
    expect(await api.app.verseMail.sendDue()).toMatchObject({ sent: 0, failed: 1 });
    refusing = false;
    now = new Date('2026-11-26T06:10:00Z');
    expect((await api.app.verseMail.sendDue()).sent).toBe(0);
    now = new Date('2026-11-26T06:25:00Z');
    expect((await api.app.verseMail.sendDue()).sent).toBe(1);
    expect(verseMailsTo(email)).toHaveLength(1);
    const send = await api.dataSource
      .getRepository(VerseMailSendRecord)
      .findOneByOrFail({ uid: member.user.uid, day: '2026-11-26' });
    expect(send).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('waits for the next morning when the member opts in after the hour', async () => {
    now = new Date('2026-11-26T10:00:00Z'); // 11:00 in Oslo
    const { email, member, session } = await signUpMember(api);
    await api.graphql(SUBSCRIBE, { input: { hour: 7, timeZone: 'Europe/Oslo' } }, { token: session.accessToken });
    await onlyThese([member.user.uid]);
    await api.app.verseMail.sendDue();
    expect(verseMailsTo(email)).toHaveLength(0);
    now = new Date('2026-11-27T06:00:00Z');
    await api.app.verseMail.sendDue();
    expect(verseMailsTo(email)).toHaveLength(1);
  });

  it('mails no address that is not confirmed', async () => {
    now = new Date('2026-11-25T19:00:00Z');
    const email = uniqueEmail('unconfirmed');
    const created = await serviceClient(api).auth.admin.createUser({
      email,
      password: GOOD_PASSWORD,
      email_confirm: false,
    });
    const uid = created.data.user?.id ?? '';
    await insertMember(api.dataSource, { user: { uid, email } });
    // A subscription that exists although the address is not confirmed sends nothing.
    await api.dataSource
      .getRepository(VerseMailSubscriptionRecord)
      .insert({ uid, hour: 7, timeZone: 'Europe/Oslo', createdAt: now });
    await onlyThese([uid]);
    now = new Date('2026-11-26T06:30:00Z');
    expect(await api.app.verseMail.sendDue()).toMatchObject({ sent: 0 });
    expect(verseMailsTo(email)).toHaveLength(0);
  });

  it('refuses an hour or time zone that does not exist, and changes nothing', async () => {
    const { session, member } = await signUpMember(api);
    const token = session.accessToken;
    const badZone = await api.graphql(SUBSCRIBE, { input: { hour: 7, timeZone: 'Mars/Olympus' } }, { token });
    expect(firstError(badZone)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.timeZone' });
    const badHour = await api.graphql(SUBSCRIBE, { input: { hour: 24, timeZone: 'Europe/Oslo' } }, { token });
    expect(firstError(badHour).code).toBe('BAD_USER_INPUT');
    expect(await api.dataSource.getRepository(VerseMailSubscriptionRecord).countBy({ uid: member.user.uid })).toBe(0);
  });

  it('keeps a send record (and its unsubscribe link) for 90 days, then forgets it', async () => {
    const { member } = await subscribedMember();
    await onlyThese([member.user.uid]);
    const sends = api.dataSource.getRepository(VerseMailSendRecord);
    const record = (day: string, hash: string) => ({
      uid: member.user.uid,
      day,
      status: 'sent' as const,
      attempts: 1,
      claimedUntil: new Date(0),
      unsubscribeHash: hash.repeat(64),
    });
    await sends.insert([record('2026-08-27', 'a'), record('2026-08-28', 'b')]);
    now = new Date('2026-11-26T12:00:00Z');
    await api.app.verseMail.sendDue();
    const days = (await sends.findBy({ uid: member.user.uid })).map((send) => send.day).sort();
    expect(days).toEqual(['2026-08-28', '2026-11-26']);
  });

  it('answers an unknown unsubscribe token with 404 and changes nothing', async () => {
    const response = await fetch(`${api.url}/verse-mail/unsubscribe?token=${'x'.repeat(43)}`, { method: 'POST' });
    expect(response.status).toBe(404);
  });
});
