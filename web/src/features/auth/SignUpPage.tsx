import { useRef, useState } from 'react';
import type { ReactElement, ReactNode, SubmitEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { MINIMUM_AGE_YEARS } from '@rules/signup';
import { failureWords } from '../../lib/error-words';
import { formBanner } from '../../lib/errors';
import type { ApiFailure } from '../../lib/errors';
import { useFormAction } from '../../lib/use-form-action';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert, SubmitButton, TextField } from '../../ui/Field';
import { EmailField } from '../../ui/EmailField';
import { PageHeading } from '../../ui/PageHeading';
import { visitorTimeZone } from '../../lib/time-zone';
import { NewPasswordField } from '../../ui/password/NewPasswordField';
import { EmailCodeForm } from './EmailCodeForm';
import { useUsernameCheck } from './use-username-check';
import type { UsernameCheck } from './use-username-check';
import {
  birthdayProblem,
  emailProblem,
  firstNameProblem,
  passwordProblem,
  usernameProblem,
} from '../../lib/validation';

interface Values {
  first: string;
  email: string;
  password: string;
  username: string;
  birthday: string;
}

type FieldName = keyof Values;

/** A field's or the form's error: words, or words with links and the failure's code. */
type Problem = string | ReactElement;

const CHECKS: Record<FieldName, (value: string) => string | null> = {
  first: firstNameProblem,
  email: emailProblem,
  password: passwordProblem,
  // Optional: left empty, the server generates one.
  username: (value) => (value.trim() === '' ? null : usernameProblem(value)),
  birthday: birthdayProblem,
};

const ORDER: FieldName[] = ['first', 'email', 'password', 'username', 'birthday'];

/** The fields of the form, by the names the API gives them in `extensions.field`. */
function isFieldName(name: string | null): name is FieldName {
  return name !== null && (ORDER as string[]).includes(name);
}

/**
 * A sign-up failure as the original showed it, message and code, but as a sentence with the code
 * set apart as a reference for support (every other screen shows words only).
 */
function FailureWithCode({ failure, children }: { failure: ApiFailure; children?: ReactNode }) {
  // One element: a field's error lays out its icon and its text side by side.
  return (
    <span>
      {failureWords(failure)}
      {children} <span className="error-code">Error code: {failure.code}</span>
    </span>
  );
}

/** An address that has an account already: the way forward is right there, with the address filled in. */
function EmailTaken({ failure, email }: { failure: ApiFailure; email: string }) {
  return (
    <FailureWithCode failure={failure}>
      {' '}
      <Link to="/login" state={{ email }}>
        Log in
      </Link>{' '}
      or{' '}
      <Link to="/forgot-password" state={{ email }}>
        reset your password
      </Link>
      .
    </FailureWithCode>
  );
}

/** What the username check says below the field: free, or why not (the field's error says it too). */
function usernameCheckText(check: UsernameCheck): string | null {
  switch (check.state) {
    case 'checking':
      return 'Checking whether it is free…';
    case 'available':
      return 'This username is free.';
    case 'unavailable':
      return null;
    default:
      return null;
  }
}

/** Why the checked username cannot be chosen, as the field's error. */
function usernameCheckError(check: UsernameCheck): string | null {
  if (check.state !== 'unavailable') return null;
  if (check.reason === 'TAKEN') return 'Someone already has this username. Please choose another.';
  if (check.reason === 'RESERVED') return 'This username is kept for the site itself. Please choose another.';
  return 'Use 3 to 30 lowercase letters, digits, dots and underscores, starting with a letter or digit.';
}

export function SignUpPage() {
  usePageMeta({ title: 'Sign up · Lampstand' });
  const { signUp, signedIn } = useAuth();
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>({ first: '', email: '', password: '', username: '', birthday: '' });
  const [errors, setErrors] = useState<Partial<Record<FieldName, Problem>>>({});
  const usernameCheck = useUsernameCheck(values.username);
  const action = useFormAction<Problem>();
  const [confirmationSentTo, setConfirmationSentTo] = useState<string | null>(null);

  if (signedIn && !action.busy) return <Navigate to="/welcome" replace />;

  const change = (name: FieldName) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [name]: value }));
    // Once a field has shown an error, it is checked as the person types, so the error goes when mended.
    if (errors[name]) setErrors((current) => ({ ...current, [name]: CHECKS[name](value) ?? undefined }));
  };
  const blur = (name: FieldName) => () => {
    if (values[name] !== '' || name === 'password') {
      // The API's word on an unchanged value stays (typing clears it): its links must survive the
      // blur that a click on them causes.
      setErrors((current) => ({ ...current, [name]: CHECKS[name](values[name]) ?? current[name] }));
    }
  };
  const focusField = (name: FieldName) => {
    form.current?.querySelector<HTMLInputElement>(`#signup-${name}`)?.focus();
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const found: Partial<Record<FieldName, Problem>> = {};
    for (const name of ORDER) {
      const problem = CHECKS[name](values[name]);
      if (problem) found[name] = problem;
    }
    found.username ??= usernameCheckError(usernameCheck) ?? undefined;
    setErrors(found);
    const firstProblem = ORDER.find((name) => found[name]);
    if (firstProblem) {
      focusField(firstProblem);
      return;
    }
    await action.run(
      async () => {
        const outcome = await signUp({
          first: values.first.trim(),
          email: values.email.trim(),
          password: values.password,
          username: values.username.trim() || null,
          birthday: values.birthday || null,
          timeZone: visitorTimeZone() ?? null,
        });
        if (outcome === 'confirmationSent') setConfirmationSentTo(values.email.trim());
        else void navigate('/welcome');
      },
      {
        onFailure: (failure) => {
          const fieldErrors: Partial<Record<FieldName, Problem>> = {};
          for (const [name, message] of Object.entries(failure.fields)) {
            if (isFieldName(name)) fieldErrors[name] = message;
          }
          if (failure.code === 'EMAIL_TAKEN') {
            fieldErrors.email = <EmailTaken failure={failure} email={values.email.trim()} />;
          }
          // The original shows sign-up failures with their code; at the field when one is at fault.
          if (isFieldName(failure.field)) fieldErrors[failure.field] ??= <FailureWithCode failure={failure} />;
          setErrors(fieldErrors);
          const firstAtFault = ORDER.find((name) => fieldErrors[name]);
          if (firstAtFault) {
            focusField(firstAtFault);
            return null;
          }
          return <FailureWithCode failure={failure} />;
        },
      },
    );
  };

  if (confirmationSentTo) {
    return (
      <section className="page narrow" aria-labelledby="signup-title">
        <PageHeading id="signup-title">Check your inbox</PageHeading>
        <p className="lead" role="status">
          We sent a link to <strong>{confirmationSentTo}</strong>. Follow it to confirm your address, and your page is
          ready.
        </p>
        <p>
          <Link to="/login">Log in</Link> once you have confirmed. If you sign up again or ask for a sign-in link
          meanwhile, only the newest link works.
        </p>
        <EmailCodeForm
          email={confirmationSentTo}
          hint="Reading the email on another device? It says “Or enter this code”: type it here to confirm and log in."
          onMissingEmail={() => undefined}
          onOutcome={() => {
            void navigate('/welcome', { replace: true });
          }}
        />
      </section>
    );
  }

  return (
    <section className="page narrow" aria-labelledby="signup-title">
      <PageHeading id="signup-title">Make your page</PageHeading>
      <p className="lead">A page with your name and a Bible verse for every day. It takes a minute.</p>
      <form ref={form} className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{formBanner(action.alert, errors)}</FormAlert>
        <TextField
          id="signup-first"
          label="First name"
          autoComplete="given-name"
          value={values.first}
          onChange={change('first')}
          onBlur={blur('first')}
          error={errors.first}
        />
        <EmailField
          id="signup-email"
          value={values.email}
          onChange={change('email')}
          onBlur={blur('email')}
          error={errors.email}
        />
        <NewPasswordField
          id="signup-password"
          label="Password"
          value={values.password}
          onChange={change('password')}
          onBlur={blur('password')}
          error={errors.password}
          userInputs={[values.first, values.email]}
        />
        <TextField
          id="signup-username"
          label="Username"
          optional
          hint={
            usernameCheck.state === 'available' ? (
              <>
                Your page’s address: <span className="nowrap">/@{usernameCheck.username}</span>. You can change it
                later.
              </>
            ) : (
              'Your page’s address, once the username is known to be free. Leave it empty and we choose one; you can change it later.'
            )
          }
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={30}
          value={values.username}
          onChange={change('username')}
          onBlur={blur('username')}
          error={errors.username ?? usernameCheckError(usernameCheck)}
          aria-describedby="signup-username-check"
        >
          <p id="signup-username-check" className="field-check" role="status">
            {usernameCheckText(usernameCheck)}
          </p>
        </TextField>
        <TextField
          id="signup-birthday"
          label="Birthday"
          type="date"
          optional
          hint={`You must be at least ${MINIMUM_AGE_YEARS} to join. Only you see it.`}
          value={values.birthday}
          onChange={change('birthday')}
          onBlur={blur('birthday')}
          error={errors.birthday}
        />
        <SubmitButton busy={action.busy} busyLabel="Creating your page…">
          Create my page
        </SubmitButton>
      </form>
      <p className="form-aside">
        Already have a page? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}
