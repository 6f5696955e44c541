import { useApolloClient } from '@apollo/client/react';
import { solveChallenge } from 'altcha-lib/v1';
import { PrayerChallengeDocument, useSendPrayerRequestMutation } from './send-prayer-request.generated';

export interface PrayerRequestFields {
  body: string;
  firstName: string;
  replyTo: string;
  keepPrivate: boolean;
  /** The honeypot: people never see it, so it stays empty. */
  website: string;
}

/**
 * Sends a prayer request: asks the server for a fresh challenge, solves it here (a moment's
 * hashing, altcha's solver, no third party), then sends the request with the solution.
 */
export function useSendPrayerRequest() {
  const client = useApolloClient();
  const [send] = useSendPrayerRequestMutation();
  return async (username: string, fields: PrayerRequestFields): Promise<void> => {
    const { data } = await client.query({ query: PrayerChallengeDocument, fetchPolicy: 'no-cache' });
    if (!data) throw new Error('no challenge');
    const { algorithm, challenge, maxnumber, salt, signature } = data.prayerChallenge;
    const solution = await solveChallenge(challenge, salt, algorithm, maxnumber).promise;
    if (!solution) throw new Error('the challenge could not be solved');
    const proof = btoa(JSON.stringify({ algorithm, challenge, number: solution.number, salt, signature }));
    const optional = (value: string) => (value.trim() === '' ? null : value.trim());
    await send({
      variables: {
        input: {
          username,
          body: fields.body.trim(),
          firstName: optional(fields.firstName),
          replyTo: optional(fields.replyTo),
          keepPrivate: fields.keepPrivate,
          website: fields.website,
          proof,
        },
      },
    });
  };
}
