import { useEffect, useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useFormAction } from '../../lib/useFormAction';
import { usePageMeta } from '../../lib/usePageMeta';
import { FormAlert, SubmitButton } from '../../ui/Field';
import { PageHeading } from '../../ui/PageHeading';
import { NewPasswordField } from '../../ui/password/NewPasswordField';
import { useResetPassword } from './useResetPassword';
import { passwordProblem } from '../../lib/validation';

/** `/reset-password?token_hash=…&type=recovery`, the link of the password reset email. */
export function ResetPasswordPage() {
  usePageMeta({ title: 'Set a new password · Lampstand' });
  const [params] = useSearchParams();
  // Read once and kept here: the address loses the token as soon as the page has it.
  const [token] = useState(() => (params.get('type') === 'recovery' ? params.get('token_hash') : null));
  const resetPassword = useResetPassword();
  const navigate = useNavigate();
  const linkInAddress = params.has('token_hash');
  useEffect(() => {
    // The token must not stay in the address bar, the history, a bookmark, or what tags read.
    if (linkInAddress) void navigate({ search: '' }, { replace: true });
  }, [linkInAddress, navigate]);
  const input = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useFormAction<{ message: string; expired: boolean }>();

  if (!token) {
    return (
      <section className="page narrow" aria-labelledby="reset-title">
        <PageHeading id="reset-title">This link is not complete</PageHeading>
        <p className="lead">Please open the link from the email exactly as it came, or ask for a new one.</p>
        <p>
          <Link to="/forgot-password" className="button button--primary">
            Send me a new link
          </Link>
        </p>
      </section>
    );
  }

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const problem = passwordProblem(password);
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    await action.run(
      async () => {
        await resetPassword(token, password);
        void navigate('/profile', { replace: true, state: { notice: 'Your new password is set.' } });
      },
      {
        onFailure: ({ message, code, field }, error) => {
          console.error('Password reset failed', error);
          if (field === 'newPassword') setError(message);
          return { message, expired: code === 'INVALID_TOKEN' };
        },
      },
    );
  };

  return (
    <section className="page narrow" aria-labelledby="reset-title">
      <PageHeading id="reset-title">Set a new password</PageHeading>
      <p className="lead">Choose a new password for your account. You will stay logged in on this device only.</p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>
          {action.alert && (
            <>
              {action.alert.message} {action.alert.expired && <Link to="/forgot-password">Send me a new link</Link>}
            </>
          )}
        </FormAlert>
        <NewPasswordField
          ref={input}
          id="reset-password"
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            if (error) setError(passwordProblem(event.target.value));
          }}
          error={error}
        />
        <SubmitButton busy={action.busy} busyLabel="Saving…">
          Save my new password
        </SubmitButton>
      </form>
    </section>
  );
}
