import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useFormAction } from '../../lib/use-form-action';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert, FormStatus, SubmitButton } from '../../ui/Field';
import { EmailField } from '../../ui/EmailField';
import { PageHeading } from '../../ui/PageHeading';
import { emailProblem } from '../../lib/validation';
import type { LoginOutcome } from '../../session/AuthProvider';
import { HaveCodeButton } from './HaveCodeButton';
import { prefilledEmail } from './prefill';
import { ResetCodeForm } from './ResetCodeForm';
import { SignInCodeForm } from './SignInCodeForm';
import { failureWords } from '../../lib/error-words';

/** Where a member who set a new password with an emailed code goes, as after the reset link. */
const AFTER_RESET = { replace: true, state: { notice: 'Your new password is set.' } } as const;

export function ForgotPasswordPage() {
  usePageMeta({ title: 'Forgot your password · Lampstand' });
  const { requestPasswordReset } = useAuth();
  const input = useRef<HTMLInputElement>(null);
  const location = useLocation();
  // Sign-up hands over the address that already has an account.
  const [email, setEmail] = useState(() => prefilledEmail(location.state));
  const [error, setError] = useState<string | null>(null);
  /** The box for the emailed code: open once a link is sent, or when the member says they have one. */
  const [codeOpen, setCodeOpen] = useState(false);
  /** Set once the code set the password of an account with two-factor sign-in on: its code comes next. */
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const navigate = useNavigate();
  const action = useFormAction();

  if (mfaToken !== null) {
    return (
      <section className="page narrow" aria-labelledby="forgot-title">
        <PageHeading id="forgot-title">Enter your code</PageHeading>
        <p className="lead">Your new password is set. Enter the code from your authenticator app to log in.</p>
        <SignInCodeForm
          mfaToken={mfaToken}
          onSignedIn={() => {
            void navigate('/profile', AFTER_RESET);
          }}
        />
      </section>
    );
  }

  const onCodeOutcome = (outcome: LoginOutcome) => {
    if (outcome.status === 'mfaRequired') setMfaToken(outcome.mfaToken);
    else void navigate('/profile', AFTER_RESET);
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const problem = emailProblem(email);
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    await action.run(
      async () => {
        const notice = await requestPasswordReset(email.trim());
        setCodeOpen(true);
        return notice;
      },
      {
        fields: { email: { setError, input } },
        onFailure: (problem, error) => {
          console.error('Password reset request failed', error);
          return failureWords(problem);
        },
      },
    );
  };

  return (
    <section className="page narrow" aria-labelledby="forgot-title">
      <PageHeading id="forgot-title">Forgot your password?</PageHeading>
      <p className="lead">Enter your email address and we will send you a link to set a new one.</p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{action.alert}</FormAlert>
        <FormStatus>{action.status}</FormStatus>
        {action.status && (
          <p className="field-hint">
            Only the newest link works: asking again replaces it, and a password changed meanwhile (or a sign-in link
            asked for) makes it stop working.
          </p>
        )}
        <EmailField
          ref={input}
          id="forgot-email"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (error) setError(emailProblem(event.target.value));
          }}
          error={error}
        />
        <SubmitButton busy={action.busy} busyLabel="Sending…">
          Send the link
        </SubmitButton>
      </form>
      {codeOpen ? (
        <ResetCodeForm initialEmail={email.trim()} onOutcome={onCodeOutcome} />
      ) : (
        <HaveCodeButton
          onOpen={() => {
            setCodeOpen(true);
          }}
        />
      )}
      <p className="form-aside">
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}
