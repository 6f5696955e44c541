import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { useFormAction } from '../../lib/use-form-action';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { EmailField } from '../../ui/EmailField';
import { MemberNav } from '../../ui/MemberNav';
import { PageHeading } from '../../ui/PageHeading';
import { NewPasswordField } from '../../ui/password/NewPasswordField';
import { emailProblem, passwordProblem } from '../../lib/validation';
import { PageHoldNotice } from '../../ui/PageHoldNotice';
import { DownloadDataSection } from './DownloadDataSection';
import { PasskeysSection } from './PasskeysSection';
import { TwoFactorSection } from './TwoFactorSection';
import { useAccountActions } from './use-account-actions';
import './account.css';
import { failureWords } from '../../lib/error-words';

/** `/account`: email address, password, two-factor sign-in, passkeys, downloading your data, and deleting the account. */
export function AccountPage() {
  usePageMeta({ title: 'Account · Lampstand' });
  return (
    <section className="page account" aria-labelledby="account-title">
      <MemberNav />
      <PageHeading id="account-title">Account</PageHeading>
      <PageHoldNotice />
      <EmailSection />
      <PasswordSection />
      <TwoFactorSection />
      <PasskeysSection />
      <DownloadDataSection />
      <DeleteSection />
    </section>
  );
}

function EmailSection() {
  const { user } = useAuth();
  const { updateEmail } = useAccountActions();
  const input = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const problem =
      emailProblem(email) ?? (email.trim() === user?.email ? 'That is already your email address.' : null);
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    await action.run(
      async () => {
        const { pendingEmail } = await updateEmail(email.trim(), password);
        setEmail('');
        setPassword('');
        return pendingEmail;
      },
      {
        onFailure: (problem) => {
          // A session signed in a while ago proves itself with the password (a stolen token must not move the account).
          if (problem.code === 'REAUTHENTICATION_NEEDED' || problem.code === 'INVALID_CREDENTIALS') {
            setPasswordError(
              problem.code === 'INVALID_CREDENTIALS'
                ? failureWords(problem)
                : 'Enter your current password to change the address.',
            );
            passwordInput.current?.focus();
            return null;
          }
          return failureWords(problem);
        },
        fields: { email: { setError, input } },
      },
    );
  };

  return (
    <section className="account-section" aria-labelledby="email-title">
      <h2 id="email-title">Email address</h2>
      <p>
        You log in with <strong className="nowrap">{user?.email}</strong>.
      </p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{action.alert}</FormAlert>
        <EmailField
          ref={input}
          id="account-email"
          label="New email address"
          hint="We send a link to the new address (and the current one). The change takes effect once confirmed."
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (error) setError(null);
          }}
          error={error}
        />
        <TextField
          ref={passwordInput}
          id="account-email-password"
          label="Your password"
          type="password"
          autoComplete="current-password"
          hint="Not needed in the first 15 minutes after you log in."
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            if (passwordError) setPasswordError(null);
          }}
          error={passwordError}
        />
        <FormStatus>
          {action.status && (
            <>
              Please check your inbox: follow the links we sent to confirm the change to{' '}
              <strong className="nowrap">{action.status}</strong>.
            </>
          )}
        </FormStatus>
        {action.status && (
          <p className="field-hint">
            Changing your password meanwhile keeps this change waiting: the links still work. Asking for another address
            replaces it, and only the newest links work.
          </p>
        )}
        <SubmitButton busy={action.busy} busyLabel="Sending…">
          Change email address
        </SubmitButton>
      </form>
    </section>
  );
}

function PasswordSection() {
  const { user } = useAuth();
  const { changePassword } = useAccountActions();
  const currentInput = useRef<HTMLInputElement>(null);
  const nextInput = useRef<HTMLInputElement>(null);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<{ current?: string; next?: string }>({});
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const found = {
      current: current === '' ? 'Enter your current password.' : undefined,
      next: passwordProblem(next) ?? undefined,
    };
    setErrors(found);
    if (found.current || found.next) {
      (found.current ? currentInput : nextInput).current?.focus();
      return;
    }
    await action.run(
      async () => {
        await changePassword(current, next);
        setCurrent('');
        setNext('');
        return 'Your password is changed. Your other devices have been logged out.';
      },
      {
        fields: {
          currentPassword: {
            setError: (message) => {
              setErrors({ current: message });
            },
            input: currentInput,
            codes: ['INVALID_CREDENTIALS'],
          },
          newPassword: {
            setError: (message) => {
              setErrors({ next: message });
            },
            input: nextInput,
          },
        },
        onFailure: failureWords,
      },
    );
  };

  return (
    <section className="account-section" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{action.alert}</FormAlert>
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <TextField
          ref={currentInput}
          id="account-current"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(event) => {
            setCurrent(event.target.value);
            if (errors.current) setErrors((found) => ({ ...found, current: undefined }));
          }}
          error={errors.current}
        />
        <NewPasswordField
          ref={nextInput}
          id="account-new"
          value={next}
          onChange={(event) => {
            setNext(event.target.value);
            if (errors.next)
              setErrors((found) => ({ ...found, next: passwordProblem(event.target.value) ?? undefined }));
          }}
          error={errors.next}
          userInputs={[user?.first ?? '', user?.email ?? '']}
        />
        <FormStatus>{action.status}</FormStatus>
        <SubmitButton busy={action.busy} busyLabel="Saving…">
          Change password
        </SubmitButton>
      </form>
    </section>
  );
}

function DeleteSection() {
  const { stripe: plus } = useAuth();
  const { deleteAccount } = useAccountActions();
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    if (password === '') {
      setError('Enter your password to confirm.');
      input.current?.focus();
      return;
    }
    setError(null);
    // After the deletion the page is on its way home: it stays busy until it is gone.
    await action.run(() => deleteAccount(password), {
      leaves: true,
      fields: { password: { setError, input, codes: ['INVALID_CREDENTIALS'] } },
      onFailure: failureWords,
    });
  };

  return (
    <section className="account-section account-section--danger" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete account</h2>
      <p>
        This deletes your account, your page and its settings for good.{plus && ' Plus ends too.'} It cannot be undone.
      </p>
      {open ? (
        <form className="form" noValidate onSubmit={(event) => void submit(event)}>
          <FormAlert>{action.alert}</FormAlert>
          <TextField
            ref={input}
            id="delete-password"
            label="Your password, to confirm"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              if (error) setError(null);
            }}
            error={error}
          />
          <p className="form-actions">
            <SubmitButton busy={action.busy} busyLabel="Deleting…">
              Delete my account for good
            </SubmitButton>
            <button
              type="button"
              className="button button--quiet"
              onClick={() => {
                setOpen(false);
                setPassword('');
                setError(null);
                action.setAlert(null);
                // The form goes, and the focus with it: back to the button that opened it.
                requestAnimationFrame(() => opener.current?.focus());
              }}
            >
              Keep my account
            </button>
          </p>
        </form>
      ) : (
        <button
          ref={opener}
          type="button"
          className="button button--danger"
          onClick={() => {
            setOpen(true);
            // The password field appears with this render; focus it once it is there.
            requestAnimationFrame(() => input.current?.focus());
          }}
        >
          Delete my account…
        </button>
      )}
    </section>
  );
}
