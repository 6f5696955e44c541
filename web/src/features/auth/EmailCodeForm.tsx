import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { useFormAction } from '../../lib/use-form-action';
import { emailProblem } from '../../lib/validation';
import type { LoginOutcome } from '../../session/AuthProvider';
import { useAuth } from '../../session/AuthProvider';
import { CodeField } from '../../ui/CodeField';
import { FormAlert, SubmitButton } from '../../ui/Field';
import { failureWords } from '../../lib/error-words';

/** Six digits, as the sign-in email shows them (spaces dropped). */
export function emailCodeProblem(code: string): string | null {
  return /^\d{6}$/.test(code.replace(/\s/g, '')) ? null : 'Enter the 6-digit code from the email.';
}

/**
 * "Enter the code from the email": the sign-in email carries a code beside its link, for a member
 * who reads the mail on another device (a phone at hand, the mail on a computer, or the reverse).
 * The address comes from the log-in form above; `onOutcome` takes the member on.
 */
export function EmailCodeForm({
  email,
  hint = 'The sign-in email says “Or enter this code”. It works once, within an hour, with the address above.',
  onMissingEmail,
  onOutcome,
}: {
  email: string;
  /** Which email carries the code (the sign-in email, or the sign-up confirmation). */
  hint?: string;
  /** The address is missing or malformed: the log-in form says so at its field. */
  onMissingEmail: (problem: string) => void;
  onOutcome: (outcome: LoginOutcome) => void;
}) {
  const { signInWithEmailCode } = useAuth();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const missing = emailProblem(email);
    if (missing) {
      onMissingEmail(email.trim() === '' ? 'Enter the email address the code was sent to.' : missing);
      return;
    }
    const problem = emailCodeProblem(code);
    setError(problem ?? undefined);
    if (problem) return;
    await action.run(
      async () => {
        onOutcome(await signInWithEmailCode(email.trim(), code.replace(/\s/g, '')));
      },
      {
        name: 'code',
        onFailure: (failure) => {
          setCode('');
          if (failure.code === 'INVALID_TOKEN') {
            setError('That code did not work: it may be mistyped, used or over an hour old. Ask for a new email.');
            return null;
          }
          return failureWords(failure);
        },
      },
    );
  };

  return (
    <form className="form" noValidate aria-labelledby="login-email-code-title" onSubmit={(event) => void submit(event)}>
      <h2 id="login-email-code-title" className="form-subheading">
        Have the code from the email?
      </h2>
      <FormAlert>{action.alert}</FormAlert>
      <CodeField
        id="login-email-code"
        label="6-digit code from the email"
        hint={hint}
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          if (error) setError(undefined);
        }}
        error={error}
      />
      <SubmitButton busy={action.busy} busyLabel="Checking…">
        Log in with the code
      </SubmitButton>
    </form>
  );
}
