import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { useFormAction } from '../../lib/use-form-action';
import { emailProblem, passwordProblem } from '../../lib/validation';
import type { LoginOutcome } from '../../session/AuthProvider';
import { useAuth } from '../../session/AuthProvider';
import { CodeField } from '../../ui/CodeField';
import { FormAlert, SubmitButton } from '../../ui/Field';
import { EmailField } from '../../ui/EmailField';
import { NewPasswordField } from '../../ui/password/NewPasswordField';
import { emailCodeProblem } from './EmailCodeForm';
import { failureWords } from '../../lib/error-words';

interface Problems {
  email?: string;
  code?: string;
  password?: string;
}

/**
 * "I have a code from an email": the reset email carries a 6-digit code beside its link, for a
 * member who reads the mail on another device. The address, the code and the new password together
 * set the password and sign in; `onOutcome` takes the member on.
 */
export function ResetCodeForm({
  initialEmail,
  onOutcome,
}: {
  initialEmail: string;
  onOutcome: (outcome: LoginOutcome) => void;
}) {
  const { resetPasswordWithCode } = useAuth();
  const form = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Problems>({});
  const action = useFormAction();

  const focus = (problems: Problems) => {
    const id = problems.email ? 'reset-code-email' : problems.code ? 'reset-code' : 'reset-code-password';
    form.current?.querySelector<HTMLInputElement>(`#${id}`)?.focus();
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const found: Problems = {
      email: emailProblem(email) ?? undefined,
      code: emailCodeProblem(code) ?? undefined,
      password: passwordProblem(password) ?? undefined,
    };
    setErrors(found);
    if (found.email || found.code || found.password) {
      focus(found);
      return;
    }
    await action.run(
      async () => {
        onOutcome(await resetPasswordWithCode(email.trim(), code.replace(/\s/g, ''), password));
      },
      {
        onFailure: (failure) => {
          if (failure.code === 'INVALID_TOKEN') {
            setCode('');
            const problems = {
              code: 'That code did not work: it may be mistyped, used or over an hour old. Ask for a new email.',
            };
            setErrors(problems);
            focus(problems);
            return null;
          }
          if (failure.field === 'newPassword' || failure.field === 'email') {
            const problems =
              failure.field === 'email' ? { email: failureWords(failure) } : { password: failureWords(failure) };
            setErrors(problems);
            focus(problems);
            return null;
          }
          return failureWords(failure);
        },
      },
    );
  };

  return (
    <form
      ref={form}
      className="form"
      noValidate
      aria-labelledby="reset-code-title"
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="reset-code-title" className="form-subheading">
        Have the code from the email?
      </h2>
      <FormAlert>{action.alert}</FormAlert>
      <EmailField
        id="reset-code-email"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          if (errors.email) setErrors({ ...errors, email: undefined });
        }}
        error={errors.email}
      />
      <CodeField
        id="reset-code"
        label="6-digit code from the email"
        hint="The reset email says “Or enter this code”. It works once, within an hour."
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          if (errors.code) setErrors({ ...errors, code: undefined });
        }}
        error={errors.code}
      />
      <NewPasswordField
        id="reset-code-password"
        value={password}
        userInputs={[email]}
        onChange={(event) => {
          setPassword(event.target.value);
          if (errors.password) setErrors({ ...errors, password: passwordProblem(event.target.value) ?? undefined });
        }}
        error={errors.password}
      />
      <SubmitButton busy={action.busy} busyLabel="Saving…">
        Save my new password
      </SubmitButton>
    </form>
  );
}
