import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useFormAction } from '../../lib/useFormAction';
import { usePageMeta } from '../../lib/usePageMeta';
import { useAuth } from '../../session/AuthProvider';
import { safeReturnPath } from '../../session/RequireAuth';
import { FormAlert, SubmitButton, TextField } from '../../ui/Field';
import { PageHeading } from '../../ui/PageHeading';
import { emailProblem } from '../../lib/validation';

/** Where members go after logging in, unless they came from a member's screen. */
const HOME = '/profile';

export function LoginPage() {
  usePageMeta({ title: 'Log in · Lampstand' });
  const { login, signedIn } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get('next'), HOME);
  const form = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const action = useFormAction();

  if (signedIn && !action.busy) return <Navigate to={next} replace />;

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const found = {
      email: emailProblem(email) ?? undefined,
      password: password === '' ? 'Enter your password.' : undefined,
    };
    setErrors(found);
    if (found.email || found.password) {
      action.setAlert('Please correct the highlighted fields.');
      form.current?.querySelector<HTMLInputElement>(found.email ? '#login-email' : '#login-password')?.focus();
      return;
    }
    await action.run(
      async () => {
        await login(email.trim(), password);
        void navigate(next, { replace: true });
      },
      {
        onFailure: (problem, error) => {
          // The original only logged this; we also tell the person.
          console.error('Log in failed', error);
          setPassword('');
          return problem.message;
        },
      },
    );
  };

  return (
    <section className="page narrow" aria-labelledby="login-title">
      <PageHeading id="login-title">Log in</PageHeading>
      <p className="lead">Welcome back. Your verse for today is waiting.</p>
      <form ref={form} className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{action.alert}</FormAlert>
        <TextField
          id="login-email"
          label="Email address"
          type="email"
          autoComplete="username"
          inputMode="email"
          spellCheck={false}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
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
          }}
          error={errors.password}
        />
        <p className="form-link">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <SubmitButton busy={action.busy} busyLabel="Logging in…">
          Log in
        </SubmitButton>
      </form>
      <p className="form-aside">
        New to Lampstand? <Link to="/signup">Make your page</Link>
      </p>
    </section>
  );
}
