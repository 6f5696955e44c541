import { solveChallenge } from 'altcha-lib/v1';
import type { TestApp } from './app.js';

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** A fresh challenge from the server, solved as the browser's form solves it: altcha's payload. */
export async function solvedProof(api: Pick<TestApp, 'graphql'>): Promise<string> {
  const response = await api.graphql<{ prayerChallenge: Challenge }>(
    '{ prayerChallenge { algorithm challenge maxnumber salt signature } }',
  );
  const challenge = response.data?.prayerChallenge;
  if (!challenge) throw new Error(`no challenge: ${JSON.stringify(response.errors)}`);
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
    .promise;
  if (!solution) throw new Error('the challenge has no solution');
  const payload = { ...challenge, number: solution.number };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

export const SEND_PRAYER = 'mutation ($input: SendPrayerRequestInput!) { sendPrayerRequest(input: $input) }';

export const TURN_ON_PRAYER = `mutation ($input: PrayerSettingsInput!) {
  updatePrayerSettings(input: $input) { enabled prompt dailyDigest retentionDays }
}`;

export const INBOX =
  '{ prayerRequests { id body firstName keepPrivate createdAt read prayedAt repliedAt canReply } unreadPrayerRequests }';
