import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../app/errors';
import { usePageMeta } from '../../app/usePageMeta';
import { useAuth } from '../../auth/AuthProvider';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { PageHeading } from '../../ui/PageHeading';
import { emailProblem } from './validation';

export function ForgotPasswordPage() {
  usePageMeta({ title: 'Forgot your password · Lampstand' });
  const { requestPasswordReset } = useAuth();
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = emailProblem(email);
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    setAlert(null);
    setNotice(null);
    setBusy(true);
    try {
      setNotice(await requestPasswordReset(email.trim()));
    } catch (failure) {
      console.error('Password reset request failed', failure);
      setAlert(describeError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page narrow" aria-labelledby="forgot-title">
      <PageHeading id="forgot-title">Forgot your password?</PageHeading>
      <p className="lead">Enter your email address and we will send you a link to set a new one.</p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{alert}</FormAlert>
        <FormStatus>{notice}</FormStatus>
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
          }}
          error={error}
        />
        <SubmitButton busy={busy} busyLabel="Sending…">
          Send the link
        </SubmitButton>
      </form>
      <p className="form-aside">
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}
