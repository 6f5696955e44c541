import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link } from 'react-router';
import { useFormAction } from '../../lib/use-form-action';
import { passwordProblem } from '../../lib/validation';
import { FormAlert, SubmitButton } from '../../ui/Field';
import { NewPasswordField } from '../../ui/password/NewPasswordField';
import { useChoosePassword } from './use-choose-password';
import { failureWords } from '../../lib/error-words';

/** A failure the form shows above its field, with the way out when the link's time is over. */
interface Alert {
  message: string;
  newLink: boolean;
}

/**
 * The new password of a member an emailed link (reset or invitation) has just signed in.
 * `onDone` runs once it is set.
 */
export function ChoosePasswordForm({ submitLabel, onDone }: { submitLabel: string; onDone: () => void }) {
  const choosePassword = useChoosePassword();
  const input = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useFormAction<Alert>();

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
        await choosePassword(password);
        onDone();
      },
      {
        fields: { newPassword: { setError, input } },
        onFailure: (problem, failure) => {
          console.error('Choosing a password failed', failure);
          return { message: failureWords(problem), newLink: problem.code === 'REAUTHENTICATION_NEEDED' };
        },
      },
    );
  };

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      <FormAlert>
        {action.alert && (
          <>
            {action.alert.message} {action.alert.newLink && <Link to="/forgot-password">Send me a new link</Link>}
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
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
