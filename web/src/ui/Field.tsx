import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import './forms.css';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-invalid'>;

/**
 * A labelled input with its hint and error, tied together for screen readers: the error sets
 * `aria-invalid` and is read with the hint through `aria-describedby`, followed by whatever else
 * the caller's `aria-describedby` names (e.g. a strength meter below the input).
 */
export function TextField({
  id,
  label,
  hint,
  error,
  optional = false,
  children,
  ref,
  'aria-describedby': alsoDescribedBy,
  ...input
}: InputProps & {
  ref?: Ref<HTMLInputElement>;
  id: string;
  label: string;
  hint?: ReactNode;
  /** Text, or text with a link (e.g. to Plus). */
  error?: ReactNode;
  optional?: boolean;
  /** Shown below the input, e.g. a strength meter. */
  children?: ReactNode;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null, alsoDescribedBy].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {optional && <span className="field-optional"> (optional)</span>}
      </label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      <input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        required={!optional}
        {...input}
      />
      {error && (
        <p id={errorId} className="field-error">
          <ErrorIcon />
          {error}
        </p>
      )}
      {children}
    </div>
  );
}

function ErrorIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" width="16" height="16">
      <circle cx="10" cy="10" r="9" fill="currentColor" />
      <path d="M10 5v6M10 14v1" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * Where a form reports a failure. The live region is always in the page (empty until needed), so
 * that screen readers announce what appears in it.
 */
export function FormAlert({ children }: { children?: ReactNode }) {
  return (
    <div role="alert" className={children ? 'form-alert' : 'form-alert form-alert--empty'}>
      {children}
    </div>
  );
}

/** Where a form confirms success, announced politely. */
export function FormStatus({ children }: { children?: ReactNode }) {
  return (
    <div role="status" className={children ? 'form-status' : 'form-status form-status--empty'}>
      {children}
    </div>
  );
}

/** A submit button that says what is happening while the request runs. */
export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <button type="submit" className="button button--primary form-submit" aria-disabled={busy || undefined}>
      {busy ? busyLabel : children}
    </button>
  );
}
