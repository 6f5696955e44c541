import { useAuth } from '../../session/AuthProvider';
import { useOpenRecoveryLinkMutation } from './recovery-link.generated';

/** What opening a reset link came to: signed in, or the authenticator code is needed first. */
export type OpenedLink = { status: 'signedIn' } | { status: 'mfaRequired'; mfaToken: string };

/**
 * Spends the emailed reset link's token and signs in with the session it answers; with two-factor
 * sign-in on, the session is kept back until the code passes (as at login).
 */
export function useOpenRecoveryLink(): (token: string) => Promise<OpenedLink> {
  const { client } = useAuth();
  const [openRecoveryLink] = useOpenRecoveryLinkMutation();
  return async (token) => {
    const { data } = await openRecoveryLink({ variables: { token }, context: { anonymous: true } });
    if (!data) throw new Error('openRecoveryLink answered no data');
    const { session } = data.openRecoveryLink;
    if (session.mfaRequired) return { status: 'mfaRequired', mfaToken: session.accessToken };
    await client.signIn(session);
    return { status: 'signedIn' };
  };
}
