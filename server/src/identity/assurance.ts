import { ErrorCode, appError, unauthenticated } from '../graphql/errors.js';
import type { AuthUser } from '../graphql/context.js';
import type { IdentityClient, IdentityUser } from './identity.client.js';
import { IdentityError } from './identity.client.js';

/** True when the account has a second factor that works (a finished TOTP setup). */
export const hasVerifiedFactor = (user: IdentityUser): boolean =>
  user.factors.some((factor) => factor.status === 'verified');

/**
 * Refuses an account change (email, password, deletion, billing) with `MFA_REQUIRED` when the
 * member has two-factor sign-in on but this session has not passed it yet (`aal1`). An aal2
 * session passes without asking the identity service.
 */
export async function requireSecondFactor(identity: IdentityClient, actor: AuthUser): Promise<void> {
  if (actor.aal === 'aal2') return;
  let user: IdentityUser;
  try {
    user = await identity.getUser(actor.accessToken);
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    if (error.status >= 500) {
      throw appError(ErrorCode.IDENTITY_UNAVAILABLE, 'Accounts are unavailable for a moment; try again.', {
        identityCode: error.code,
      });
    }
    throw unauthenticated('Your session has ended; sign in again.');
  }
  if (hasVerifiedFactor(user)) {
    throw appError(
      ErrorCode.MFA_REQUIRED,
      'Enter the code from your authenticator app first: this session has not passed two-factor sign-in.',
    );
  }
}

/** How long after opening an emailed link its session may set a password without the old one. */
export const EMAIL_LINK_WINDOW_MS = 15 * 60 * 1000;

/**
 * Refuses with `REAUTHENTICATION_NEEDED` unless this session was signed in by an emailed link or
 * code (recovery, invitation, sign-in link) within `EMAIL_LINK_WINDOW_MS`: only then does it prove
 * control of the mailbox, which is what a password reset rests on.
 */
export function requireRecentEmailLink(actor: AuthUser, now: Date = new Date()): void {
  if (actor.emailLinkAt !== null && now.getTime() - actor.emailLinkAt.getTime() <= EMAIL_LINK_WINDOW_MS) return;
  throw appError(
    ErrorCode.REAUTHENTICATION_NEEDED,
    'Setting a password this way needs a link from your email opened in the last 15 minutes. ' +
      'Ask for a new link, or change your password with your current one.',
  );
}
