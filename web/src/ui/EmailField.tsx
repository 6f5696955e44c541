import type { ComponentProps } from 'react';
import { TextField } from './Field';

/**
 * An email address's input: the phone's address keyboard, no spelling marks, and the browser's
 * saved address (`autoComplete`: a log-in form asks for `username`, so password managers pair it).
 */
export function EmailField({
  label = 'Email address',
  autoComplete = 'email',
  ...props
}: Omit<ComponentProps<typeof TextField>, 'type' | 'inputMode' | 'spellCheck' | 'label'> & { label?: string }) {
  return (
    <TextField type="email" inputMode="email" spellCheck={false} label={label} autoComplete={autoComplete} {...props} />
  );
}
