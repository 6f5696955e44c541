import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { formBanner, passkeyProblem } from '../../lib/errors';
import { useFormAction } from '../../lib/use-form-action';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { safeReturnPath } from '../../session/RequireAuth';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { EmailField } from '../../ui/EmailField';
import { PageHeading } from '../../ui/PageHeading';
import { emailProblem } from '../../lib/validation';
import { HaveCodeButton } from './HaveCodeButton';
import { EmailCodeForm } from './EmailCodeForm';
import { prefilledEmail } from './prefill';
import { SignInCodeForm } from './SignInCodeForm';
import { failureWords } from '../../lib/error-words';

/** Where members go after logging in, unless they came from a member's screen. */
const HOME = '/profile';

export function LoginPage() {
  usePageMeta({ title: 'Log in · Lampstand' });
  const { login, requestSignInLink, signInWithPasskey, signedIn } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get('next'), HOME);
  const form = useRef<HTMLFormElement>(null);
  const location = useLocation();
  // Sign-up hands over the address that already has an account.
  const [email, setEmail] = useState(() => prefilledEmail(location.state));
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  /** Set once the password passed for an account with two-factor sign-in on: the code comes next. */
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  /** The box for the emailed code: open once a link is asked for, or when the member says they have one. */
  const [codeOpen, setCodeOpen] = useState(false);
  const action = useFormAction();

  if (signedIn && !action.busy) return <Navigate to={next} replace />;

  if (mfaToken !== null) {
    return (
      <section className="page narrow" aria-labelledby="login-title">
        <PageHeading id="login-title">Enter your code</PageHeading>
        <SignInCodeForm
          mfaToken={mfaToken}
          onSignedIn={() => {
            void navigate(next, { replace: true });
          }}
        />
      </section>
    );
  }

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const found = {
      email: emailProblem(email) ?? undefined,
      password: password === '' ? 'Enter your password.' : undefined,
    };
    setErrors(found);
    if (found.email || found.password) {
      form.current?.querySelector<HTMLInputElement>(found.email ? '#login-email' : '#login-password')?.focus();
      return;
    }
    await action.run(
      async () => {
        const outcome = await login(email.trim(), password);
        setPassword('');
        if (outcome.status === 'mfaRequired') setMfaToken(outcome.mfaToken);
        else void navigate(next, { replace: true });
      },
      {
        onFailure: (problem, error) => {
          // The original only logged this; we also tell the person.
          console.error('Log in failed', error);
          setPassword('');
          return failureWords(problem);
        },
      },
    );
  };

  /** "Email me a sign-in link": needs only the address; the link signs in at /email-confirmed. */
  const sendLink = async () => {
    if (action.busy) return;
    const problem = emailProblem(email);
    // Said at the address field, the only one a sign-in link needs.
    const hint =
      problem && email.trim() === '' ? 'Enter your email address, and we will email you a link to log in.' : problem;
    setErrors({ email: hint ?? undefined });
    if (hint) {
      form.current?.querySelector<HTMLInputElement>('#login-email')?.focus();
      return;
    }
    await action.run(
      async () => {
        const notice = await requestSignInLink(email.trim());
        setCodeOpen(true);
        return notice;
      },
      {
        name: 'link',
        onFailure: (problem, error) => {
          console.error('Sign-in link request failed', error);
          return failureWords(problem);
        },
      },
    );
  };

  /** "Sign in with a passkey": the browser offers this site's passkeys; no address or password. */
  const startPasskey = async () => {
    if (action.busy) return;
    setErrors({});
    await action.run(
      async () => {
        await signInWithPasskey();
        void navigate(next, { replace: true });
      },
      {
        name: 'passkey',
        onFailure: (_problem, error) => {
          console.error('Passkey sign-in failed', error);
          return passkeyProblem(error);
        },
      },
    );
  };

  return (
    <section className="page narrow" aria-labelledby="login-title">
      <PageHeading id="login-title">Log in</PageHeading>
      <p className="lead">Welcome back.</p>
      <form ref={form} className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{formBanner(action.alert, errors)}</FormAlert>
        <FormStatus>{action.status}</FormStatus>
        {action.status && (
          <p className="field-hint">
            Only the newest link or code works: asking again, or for a password reset, replaces it. You can open it on
            another device.
          </p>
        )}
        <EmailField
          id="login-email"
          autoComplete="username"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (errors.email)
              setErrors((current) => ({ ...current, email: emailProblem(event.target.value) ?? undefined }));
          }}
          error={errors.email}
        />
        <TextField
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            if (errors.password) setErrors((current) => ({ ...current, password: undefined }));
          }}
          error={errors.password}
        />
        <p className="form-link">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <SubmitButton busy={action.busy && action.pending === 'submit'} busyLabel="Logging in…">
          Log in
        </SubmitButton>
        <button
          type="button"
          className="button button--quiet form-submit"
          aria-disabled={action.busy || undefined}
          onClick={() => void sendLink()}
        >
          {action.pending === 'link' ? 'Sending…' : 'Email me a sign-in link'}
        </button>
        <button
          type="button"
          className="button button--quiet form-submit"
          aria-disabled={action.busy || undefined}
          onClick={() => void startPasskey()}
        >
          {action.pending === 'passkey' ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
        </button>
      </form>
      {codeOpen ? (
        <EmailCodeForm
          email={email}
          onMissingEmail={(problem) => {
            setErrors({ email: problem });
            form.current?.querySelector<HTMLInputElement>('#login-email')?.focus();
          }}
          onOutcome={(outcome) => {
            if (outcome.status === 'mfaRequired') setMfaToken(outcome.mfaToken);
            else void navigate(next, { replace: true });
          }}
        />
      ) : (
        <HaveCodeButton
          onOpen={() => {
            setCodeOpen(true);
          }}
        />
      )}
      <p className="form-aside">
        New to Lampstand? <Link to="/signup">Make your page</Link>
      </p>
    </section>
  );
}
