import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { passkeyProblem } from '../../lib/errors';
import { useFormAction } from '../../lib/useFormAction';
import { codeProblem } from '../../lib/validation';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert, SubmitButton, TextField } from '../../ui/Field';
import { SupportContact } from '../../ui/SupportContact';

/**
 * The second step of logging in when two-factor sign-in is on: the code the member's
 * authenticator app shows now. `onSignedIn` runs once the code passed.
 */
export function SignInCodeForm({ mfaToken, onSignedIn }: { mfaToken: string; onSignedIn: () => void }) {
  const { verifySignInCode, verifySignInPasskey } = useAuth();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const problem = codeProblem(code);
    setError(problem ?? undefined);
    if (problem) return;
    await action.run(
      async () => {
        await verifySignInCode(mfaToken, code.replace(/\s/g, ''));
        onSignedIn();
      },
      {
        onFailure: (failure) => {
          setCode('');
          if (failure.code === 'INVALID_TOKEN') {
            setError('That code did not work. Enter the code your app shows now.');
            return null;
          }
          return failure.message;
        },
      },
    );
  };

  const passWithPasskey = () =>
    action.run(
      async () => {
        await verifySignInPasskey(mfaToken);
        onSignedIn();
      },
      { name: 'passkey', onFailure: (_failure, error) => passkeyProblem(error) },
    );

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      <FormAlert>{action.alert}</FormAlert>
      <TextField
        id="login-code"
        label="Code from your authenticator app"
        hint="Two-factor sign-in is on for this account. Open your authenticator app and enter the 6-digit code for Lampstand."
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
        }}
        error={error}
      />
      <SubmitButton busy={action.busy && action.pending === 'submit'} busyLabel="Checking…">
        Verify and log in
      </SubmitButton>
      <button
        type="button"
        className="button button--quiet form-submit"
        aria-disabled={action.busy || undefined}
        onClick={() => void passWithPasskey()}
      >
        {action.pending === 'passkey' ? 'Waiting for your passkey…' : 'Use a passkey instead'}
      </button>
      <p className="form-aside">
        Lost your phone? Then <SupportContact />: once we have checked it is you, we turn two-factor sign-in off for
        your account.
      </p>
    </form>
  );
}
