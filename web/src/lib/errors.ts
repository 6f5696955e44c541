import { CombinedGraphQLErrors } from '@apollo/client/errors';

/** An API failure as screens show it. */
export interface ApiFailure {
  message: string;
  /** The API's `extensions.code`, e.g. `EMAIL_TAKEN`; `NETWORK` when the server was not reached. */
  code: string;
  /** The identity service's own code (`user_already_exists`), when it caused the failure. */
  identityCode: string | null;
  /** The input at fault, e.g. `password` for `input.password`. */
  field: string | null;
  /** Every field problem of a validation failure, by field. */
  fields: Record<string, string>;
  /** Why a password was refused (`WEAK_PASSWORD`): `length`, `pwned`. */
  reasons: string[];
}

/** The banner of a form while fields show their errors: each message is shown once, at its field. */
export const FIX_FIELDS = 'Please correct the highlighted fields.';

/**
 * What a form's banner says: a pointer to the fields while any shows an error (so the banner goes
 * as soon as they are mended), otherwise the failure that concerns no field.
 */
export function formBanner<Alert>(alert: Alert | null, fieldErrors: Record<string, unknown>): Alert | string | null {
  return Object.values(fieldErrors).some(Boolean) ? FIX_FIELDS : alert;
}

/** `input.password` → `password`. */
function fieldName(path: unknown): string | null {
  return typeof path === 'string' ? (path.split('.').at(-1) ?? null) : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Reads what a failed operation says, whatever failed: the API, the network or the server. */
export function describeError(error: unknown): ApiFailure {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    const extensions = first?.extensions ?? {};
    const fields: Record<string, string> = {};
    if (Array.isArray(extensions.fields)) {
      for (const problem of extensions.fields as unknown[]) {
        if (typeof problem !== 'object' || problem === null) continue;
        const { field, message } = problem as { field?: unknown; message?: unknown };
        const name = fieldName(field);
        if (name && typeof message === 'string' && !(name in fields)) fields[name] = message;
      }
    }
    return {
      message: first?.message ?? 'Something went wrong. Please try again.',
      code: stringOrNull(extensions.code) ?? 'INTERNAL_SERVER_ERROR',
      identityCode: stringOrNull(extensions.identityCode),
      field: fieldName(extensions.field),
      fields,
      reasons: Array.isArray(extensions.reasons)
        ? extensions.reasons.filter((reason): reason is string => typeof reason === 'string')
        : [],
    };
  }
  return {
    message: 'We could not reach Lampstand. Please check your connection and try again.',
    code: 'NETWORK',
    identityCode: null,
    field: null,
    fields: {},
    reasons: [],
  };
}

/**
 * What `refreshSession` answers when the refresh token can never work again: the session ended
 * (`UNAUTHENTICATED`, which the API gives every ended session), the account is barred
 * (`FORBIDDEN`), or the token is expired or not one at all.
 */
const SESSION_OVER = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'INVALID_TOKEN']);

/**
 * True when the API refused a session for good. Anything else (an outage, a rate limit, a code
 * this client does not know) keeps the session for a later try: ending it would sign out every tab.
 */
export function isSessionRefused(error: unknown): boolean {
  if (!CombinedGraphQLErrors.is(error)) return false;
  const { code, field, identityCode } = describeError(error);
  if (SESSION_OVER.has(code)) return true;
  // The token itself is malformed (by the API's check, or the identity service's).
  return code === 'BAD_USER_INPUT' && (field === 'refreshToken' || identityCode === 'validation_failed');
}

/**
 * What to tell a person when a passkey step failed: the browser's ceremony was cancelled or timed
 * out (`NotAllowedError`), the identity service refused the passkey, or the API was not reached.
 */
export function passkeyProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED') {
    return 'The passkey step was cancelled or timed out. Try again when you are ready.';
  }
  if (code === 'no_passkey') return 'This account has no passkey. Enter the code from your app.';
  if (code.startsWith('webauthn_') || code === 'mfa_verification_failed') {
    return 'That passkey did not work here. Try another one, or log in with your password.';
  }
  if (name === 'PasskeyError') return (error as Error).message;
  if (name === 'WebAuthnError' || name === 'InvalidStateError') {
    return 'This device could not use a passkey just now. Try again, or log in with your password.';
  }
  return describeError(error).message;
}
