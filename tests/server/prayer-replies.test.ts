// The hourly limit on a member's replies to prayer requests: each reply is a mail from the app to a
// stranger's address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrayerRequestRecord } from '../../server/src/prayer/prayer.entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { uniqueEmail } from '../support/identity.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';
import { SEND_PRAYER, solvedProof, TURN_ON_PRAYER } from '../support/prayer.js';
import type { SmtpListener } from '../support/smtp.js';
import { startSmtpListener } from '../support/smtp.js';

const REPLY = 'mutation ($input: PrayerReplyInput!) { replyToPrayerRequest(input: $input) { id repliedAt } }';
const REPLIES_PER_MEMBER = 2;

interface Answer {
  errors?: { message: string; extensions?: { code?: string } }[];
}

let api: TestApp;
let smtp: SmtpListener;

beforeAll(async () => {
  smtp = await startSmtpListener();
  api = await startTestApp(
    { SMTP_URL: smtp.url },
    {
      prayerLimits: { perAddress: 1000, perPage: 1000, repliesPerMember: REPLIES_PER_MEMBER },
      prayerChallengeMax: 2000,
    },
  );
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

/** A member whose page takes prayer requests. */
async function memberTakingRequests(): Promise<SignedUpMember> {
  const member = await signUpMember(api);
  const on = await api.graphql(TURN_ON_PRAYER, { input: { enabled: true } }, { token: member.session.accessToken });
  expect(on.errors).toBeUndefined();
  return member;
}

/** The id of a request a visitor sent to `member`'s page, leaving `visitor` to reply to. */
async function requestTo(member: SignedUpMember, visitor: string): Promise<string> {
  const sent = await api.graphql(SEND_PRAYER, {
    input: {
      username: member.member.profile.username,
      body: 'Please pray for us.',
      replyTo: visitor,
      proof: await solvedProof(api),
    },
  });
  expect(sent.errors).toBeUndefined();
  const record = await api.dataSource
    .getRepository(PrayerRequestRecord)
    .findOneBy({ uid: member.member.user.uid, replyTo: visitor });
  return record?.id ?? '';
}

/** The member's reply over HTTP, as a client sends it: the answer's headers matter here. */
async function reply(member: SignedUpMember, id: string): Promise<{ response: Response; answer: Answer }> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${member.session.accessToken}` },
    body: JSON.stringify({ query: REPLY, variables: { input: { id, message: 'Praying for you.' } } }),
  });
  return { response, answer: (await response.json()) as Answer };
}

describe('replies to prayer requests', () => {
  it('refuses a member past their replies an hour, with Retry-After, and mails nothing', async () => {
    const member = await memberTakingRequests();
    const visitors = Array.from({ length: REPLIES_PER_MEMBER + 1 }, () => uniqueEmail());
    const ids: string[] = [];
    for (const visitor of visitors) ids.push(await requestTo(member, visitor));
    for (const id of ids.slice(0, REPLIES_PER_MEMBER)) expect((await reply(member, id)).answer.errors).toBeUndefined();

    const last = ids.at(-1) ?? '';
    const refused = await reply(member, last);
    expect(refused.answer.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(refused.answer.errors?.[0]?.message).toMatch(/many replies/);
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const record = await api.dataSource.getRepository(PrayerRequestRecord).findOneBy({ id: last });
    expect(record?.repliedAt).toBeNull();
    for (const visitor of visitors.slice(0, REPLIES_PER_MEMBER)) await smtp.nextMessage(visitor);
    expect(smtp.messages.some((message) => message.to.includes(visitors.at(-1) ?? ''))).toBe(false);
  });

  it("counts each member's replies apart", async () => {
    const busy = await memberTakingRequests();
    for (let count = 0; count <= REPLIES_PER_MEMBER; count++) await reply(busy, await requestTo(busy, uniqueEmail()));
    const other = await memberTakingRequests();
    const visitor = uniqueEmail();
    expect((await reply(other, await requestTo(other, visitor))).answer.errors).toBeUndefined();
    expect((await smtp.nextMessage(visitor)).subject).toMatch(/replied to your prayer request$/);
  });
});
