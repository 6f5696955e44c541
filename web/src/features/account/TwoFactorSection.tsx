import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { failureWords } from '../../lib/error-words';
import { useFormAction } from '../../lib/use-form-action';
import { codeProblem } from '../../lib/validation';
import { CodeField } from '../../ui/CodeField';
import { FormAlert, FormStatus, SubmitButton } from '../../ui/Field';
import type { StartMfaSetupMutation } from './two-factor.generated';
import { useTwoFactor } from './use-two-factor';
import { SupportContact } from '../../ui/SupportContact';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';

type Setup = StartMfaSetupMutation['startMfaSetup'];

/** What to do when the phone with the authenticator app is gone, shown before and after turning it on. */
function RecoveryGuidance() {
  return (
    <div className="two-factor-recovery">
      <h3>If you lose your phone</h3>
      <ul>
        <li>Keep your recovery codes somewhere safe: each lets you log in once without the app.</li>
        <li>Keep the setup key somewhere safe (a password manager): it restores the codes in a new app.</li>
        <li>Most authenticator apps can back up to your account with them, so a new phone gets the codes back.</li>
        <li>
          With neither, <SupportContact />: once we have checked it is you, we turn two-factor sign-in off so that you
          can log in with your password and set it up again.
        </li>
      </ul>
    </div>
  );
}

/** `/account`: turning two-factor sign-in (an authenticator app's codes) on and off. */
export function TwoFactorSection() {
  const { status, startSetup, confirmSetup, generateRecoveryCodes, disable } = useTwoFactor();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const action = useFormAction();

  const begin = () =>
    action.run(
      async () => {
        setSetup(await startSetup());
        setCode('');
        setCodeError(undefined);
      },
      { onFailure: (problem) => failureWords(problem), name: 'start' },
    );

  /** Confirms a code; `done` is the status to show after, or null when the section's state line says it. */
  const confirm = async (event: SubmitEvent, done: string | null, withCodes = false) => {
    event.preventDefault();
    if (action.busy) return;
    const problem = codeProblem(code);
    setCodeError(problem ?? undefined);
    if (problem) return;
    await action.run(
      async () => {
        await confirmSetup(code.replace(/\s/g, ''));
        setSetup(null);
        setCode('');
        if (withCodes) await showNewCodes();
        return done ?? undefined;
      },
      {
        onFailure: (failure) => {
          if (failure.code === 'INVALID_TOKEN' || failure.field === 'code') {
            setCodeError('That code did not work. Enter the code your app shows now.');
            return null;
          }
          return failureWords(failure);
        },
      },
    );
  };

  // Recovery codes need the embedded identity service; without it two-factor sign-in works still.
  const showNewCodes = async () => {
    try {
      setCodes(await generateRecoveryCodes());
    } catch {
      setCodes(null);
    }
  };

  const newCodes = () =>
    action.run(
      async () => {
        setCodes(await generateRecoveryCodes());
        return 'New recovery codes are ready; the earlier ones no longer work.';
      },
      { onFailure: (problem) => failureWords(problem), name: 'codes' },
    );

  const turnOff = () =>
    action.run(
      async () => {
        await disable();
        return 'Two-factor sign-in is off. Logging in asks for your password only.';
      },
      { onFailure: (problem) => failureWords(problem), name: 'disable' },
    );

  const codeField = (
    <CodeField
      id="mfa-code"
      label="Code from your app"
      value={code}
      onChange={(event) => {
        setCode(event.target.value);
      }}
      error={codeError}
    />
  );

  const { data, loading, error, refetch } = status;
  const mfa = data?.mfaStatus;
  let body;
  if (loading && !mfa) {
    body = <p role="status">Checking two-factor sign-in…</p>;
  } else if (error && !mfa) {
    body = (
      <>
        <p role="alert">We could not check two-factor sign-in just now.</p>
        <button type="button" className="button" onClick={() => void refetch()}>
          Try again
        </button>
      </>
    );
  } else if (!mfa) {
    body = <p>Two-factor sign-in is not available right now.</p>;
  } else if (mfa.enabled && !mfa.verified) {
    // A session that has not passed the code (e.g. after a password change) confirms it here first.
    body = (
      <form
        className="form"
        noValidate
        onSubmit={(event) => void confirm(event, 'Thank you: account changes are open to this session again.')}
      >
        <p>
          <strong>Two-factor sign-in is on.</strong> To change your account from here, enter the code your authenticator
          app shows now.
        </p>
        {codeField}
        <SubmitButton busy={action.busy} busyLabel="Checking…">
          Confirm it&apos;s you
        </SubmitButton>
      </form>
    );
  } else if (mfa.enabled) {
    body = (
      <>
        {codes ? (
          <RecoveryCodesPanel
            codes={codes}
            onDone={() => {
              setCodes(null);
            }}
          />
        ) : null}
        <RecoveryGuidance />
        <button type="button" className="button" disabled={action.busy} onClick={() => void newCodes()}>
          {action.pending === 'codes' ? 'Making codes…' : 'New recovery codes'}
        </button>{' '}
        <button type="button" className="button button--danger" disabled={action.busy} onClick={() => void turnOff()}>
          {action.pending === 'disable' ? 'Turning off…' : 'Turn off two-factor sign-in'}
        </button>
      </>
    );
  } else if (setup) {
    body = (
      <form className="form" noValidate onSubmit={(event) => void confirm(event, null, true)}>
        <ol className="two-factor-steps">
          <li>
            Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, …).
          </li>
          <li>Scan this QR code with it, or type the setup key.</li>
          <li>Enter the 6-digit code the app shows for Lampstand.</li>
        </ol>
        <img
          className="two-factor-qr"
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrCodeSvg)}`}
          alt="QR code for your authenticator app"
          width="200"
          height="200"
        />
        <p>
          Setup key:{' '}
          <code className="two-factor-secret" data-testid="mfa-secret">
            {setup.secret}
          </code>
        </p>
        <RecoveryGuidance />
        {codeField}
        <SubmitButton busy={action.busy} busyLabel="Checking…">
          Turn on two-factor sign-in
        </SubmitButton>
      </form>
    );
  } else {
    body = (
      <>
        <p>
          Protect your account with a second step: after your password, a code from an authenticator app on your phone.
        </p>
        <button type="button" className="button" disabled={action.busy} onClick={() => void begin()}>
          {action.pending === 'start' ? 'Preparing…' : 'Set up two-factor sign-in'}
        </button>
      </>
    );
  }

  return (
    <section className="account-section" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <FormAlert>{action.alert}</FormAlert>
      {/* Said once, here: turning it on shows this line and no status of its own. */}
      <p className="two-factor-state" role="status">
        {mfa?.enabled && mfa.verified ? (
          <>
            <strong>Two-factor sign-in is on.</strong> Logging in asks for your password and a code from your
            authenticator app.
          </>
        ) : null}
      </p>
      {body}
      <FormStatus>{action.status}</FormStatus>
    </section>
  );
}
