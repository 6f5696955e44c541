import type { ChangeEventHandler, FocusEventHandler, ReactNode, Ref } from 'react';
import { TextField } from '../Field';
import { PasswordStrength } from './PasswordStrength';

/**
 * A field for choosing a password: the policy as a hint, `new-password` for password managers,
 * and the strength meter, which the input names in `aria-describedby` so that it is read with it.
 */
export function NewPasswordField({
  id,
  label = 'New password',
  value,
  onChange,
  onBlur,
  error,
  userInputs = [],
  ref,
}: {
  id: string;
  label?: string;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  error?: ReactNode;
  /** What the member typed elsewhere (name, email), which a strong password should not contain. */
  userInputs?: string[];
  ref?: Ref<HTMLInputElement>;
}) {
  const strengthId = `${id}-strength`;
  return (
    <TextField
      ref={ref}
      id={id}
      label={label}
      type="password"
      autoComplete="new-password"
      hint="At least 8 characters. Common passwords are not accepted."
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      error={error}
      aria-describedby={strengthId}
    >
      <PasswordStrength id={strengthId} password={value} userInputs={userInputs} />
    </TextField>
  );
}
