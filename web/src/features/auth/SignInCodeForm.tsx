import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { passkeyProblem } from '../../lib/errors';
import { useFormAction } from '../../lib/use-form-action';
import { codeProblem } from '../../lib/validation';
import { useAuth } from '../../session/AuthProvider';
import { CodeField } from '../../ui/CodeField';
import { FormAlert, SubmitButton, TextField } from '../../ui/Field';
import { SupportContact } from '../../ui/SupportContact';
import { failureWords } from '../../lib/error-words';

/**
 * The second step of logging in when two-factor sign-in is on: the code the member's
 * authenticator app shows now. `onSignedIn` runs once the code passed.
 */
export function SignInCodeForm({ mfaToken, onSignedIn }: { mfaToken: string; onSignedIn: () => void }) {
  const { verifySignInCode, verifySignInRecoveryCode, verifySignInPasskey } = useAuth();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const problem = recovery ? (code.trim() === '' ? 'Enter one of your recovery codes.' : null) : codeProblem(code);
    setError(problem ?? undefined);
    if (problem) return;
    await action.run(
      async () => {
        if (recovery) await verifySignInRecoveryCode(mfaToken, code.trim());
        else await verifySignInCode(mfaToken, code.replace(/\s/g, ''));
        onSignedIn();
      },
      {
        onFailure: (failure) => {
          setCode('');
          if (failure.code === 'RECOVERY_CODE_USED') {
            setError('That recovery code was used already: each works once. Enter another one.');
            return null;
          }
          if (failure.code === 'INVALID_TOKEN') {
            setError(
              recovery
                ? 'That recovery code did not work. Check it and try again.'
                : 'That code did not work. Enter the code your app shows now.',
            );
            return null;
          }
          return failureWords(failure);
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
      {recovery ? (
        <TextField
          id="login-recovery-code"
          label="Recovery code"
          hint="Enter one of the recovery codes you saved when you turned two-factor sign-in on. Each works once."
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={24}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
          }}
          error={error}
        />
      ) : (
        <CodeField
          id="login-code"
          label="Code from your authenticator app"
          hint="Two-factor sign-in is on for this account. Open your authenticator app and enter the 6-digit code for Lampstand."
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
          }}
          error={error}
        />
      )}
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
      <button
        type="button"
        className="button button--quiet form-submit"
        aria-disabled={action.busy || undefined}
        onClick={() => {
          setRecovery(!recovery);
          setCode('');
          setError(undefined);
        }}
      >
        {recovery ? 'Use the code from my app' : 'Use a recovery code'}
      </button>
      <p className="form-aside">
        Lost your phone and your recovery codes? Then <SupportContact />: once we have checked it is you, we turn
        two-factor sign-in off for your account.
      </p>
    </form>
  );
}
