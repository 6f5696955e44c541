import type { ComponentProps } from 'react';
import { TextField } from './Field';

/**
 * A one-time code's input (an authenticator app's or an email's six digits): the phone's number
 * pad, the code the phone offers from a message, and room for the space some apps show (`123 456`).
 */
export function CodeField(props: Omit<ComponentProps<typeof TextField>, 'inputMode' | 'autoComplete' | 'maxLength'>) {
  return <TextField inputMode="numeric" autoComplete="one-time-code" maxLength={7} {...props} />;
}
