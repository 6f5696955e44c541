import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link } from 'react-router';
import { useFormAction } from '../../lib/useFormAction';
import { usePageMeta } from '../../lib/usePageMeta';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { PageHeading } from '../../ui/PageHeading';
import { emailProblem } from '../../lib/validation';

export function ForgotPasswordPage() {
  usePageMeta({ title: 'Forgot your password · Lampstand' });
  const { requestPasswordReset } = useAuth();
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const problem = emailProblem(email);
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    await action.run(() => requestPasswordReset(email.trim()), {
      onFailure: (problem, error) => {
        console.error('Password reset request failed', error);
        if (problem.field !== 'email') return problem.message;
        setError(problem.message);
        input.current?.focus();
        return null;
      },
    });
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
        <TextField
          ref={input}
          id="forgot-email"
          label="Email address"
          type="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
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
      <p className="form-aside">
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}
