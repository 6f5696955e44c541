import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../lib/errors';
import { usePageMeta } from '../../lib/use-page-meta';
import { PageHeading } from '../../ui/PageHeading';
import { ChoosePasswordForm } from './ChoosePasswordForm';
import { LinkFailed } from './LinkFailed';
import { SignInCodeForm } from './SignInCodeForm';
import { useOpenRecoveryLink } from './use-open-recovery-link';
import { failureWords } from '../../lib/error-words';

type State =
  | { status: 'opening' }
  | { status: 'mfaRequired'; mfaToken: string }
  | { status: 'open' }
  | { status: 'failed'; message: string; expired: boolean };

/** The way out of a link that does not work: a new one. */
function NewLinkButton() {
  return (
    <p>
      <Link to="/forgot-password" className="button button--primary">
        Send me a new link
      </Link>
    </p>
  );
}

/**
 * `/reset-password?token_hash=…&type=recovery`, the link of the password reset email. Opening it
 * spends the link (as Supabase Auth's recovery flow does), so a used or expired link is reported
 * at once; the new password is then chosen in the session it signed in.
 */
export function ResetPasswordPage() {
  usePageMeta({ title: 'Set a new password · Lampstand' });
  const [params] = useSearchParams();
  // Read once and kept here: the address loses the token as soon as the page has it.
  const [token] = useState(() => (params.get('type') === 'recovery' ? params.get('token_hash') : null));
  // A PKCE link (asked for by another app through supabase-js) hands a code only that app can use.
  const [otherApp] = useState(() => params.has('code'));
  const openRecoveryLink = useOpenRecoveryLink();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ status: 'opening' });
  const started = useRef(false);
  const linkInAddress = params.has('token_hash') || params.has('code');

  useEffect(() => {
    // The token must not stay in the address bar, the history, a bookmark, or what tags read.
    if (linkInAddress) void navigate({ search: '' }, { replace: true });
  }, [linkInAddress, navigate]);

  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    openRecoveryLink(token).then(
      (opened) => {
        setState(opened.status === 'mfaRequired' ? opened : { status: 'open' });
      },
      (error: unknown) => {
        console.error('Opening the reset link failed', error);
        const failure = describeError(error);
        const expired = failure.code === 'INVALID_TOKEN';
        setState({
          status: 'failed',
          message: expired ? 'This link has expired or was already used.' : failureWords(failure),
          expired,
        });
      },
    );
  }, [openRecoveryLink, token]);

  if (!token && otherApp) {
    return (
      <section className="page narrow" aria-labelledby="reset-title">
        <PageHeading id="reset-title">Go back to the app</PageHeading>
        <p className="lead">
          This link finishes in the app where you asked for it. Open that app to set your new password, or ask for a new
          link here.
        </p>
        <NewLinkButton />
      </section>
    );
  }

  if (!token) {
    return (
      <section className="page narrow" aria-labelledby="reset-title">
        <PageHeading id="reset-title">This link is not complete</PageHeading>
        <p className="lead">Please open the link from the email exactly as it came, or ask for a new one.</p>
        <NewLinkButton />
      </section>
    );
  }

  switch (state.status) {
    case 'opening':
      return (
        <section className="page narrow" aria-labelledby="reset-title" aria-busy="true">
          <PageHeading id="reset-title">Opening your link…</PageHeading>
          <p className="lead" role="status">
            One moment, please.
          </p>
        </section>
      );
    case 'failed':
      return (
        <LinkFailed message={state.message}>
          {state.expired && <p>Reset links work once and expire after an hour.</p>}
          <NewLinkButton />
        </LinkFailed>
      );
    case 'mfaRequired':
      return (
        <section className="page narrow" aria-labelledby="reset-title">
          <PageHeading id="reset-title">Enter your code</PageHeading>
          <p className="lead">Before you choose a new password, enter the code from your authenticator app.</p>
          <SignInCodeForm
            mfaToken={state.mfaToken}
            onSignedIn={() => {
              setState({ status: 'open' });
            }}
          />
        </section>
      );
    case 'open':
      return (
        <section className="page narrow" aria-labelledby="reset-title">
          <PageHeading id="reset-title">Set a new password</PageHeading>
          <p className="lead">Choose a new password for your account. You will stay logged in on this device only.</p>
          <ChoosePasswordForm
            submitLabel="Save my new password"
            onDone={() => {
              void navigate('/profile', { replace: true, state: { notice: 'Your new password is set.' } });
            }}
          />
        </section>
      );
  }
}
