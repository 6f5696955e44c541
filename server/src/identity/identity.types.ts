/** A failed identity operation, with Supabase Auth's HTTP status and error code. */
export class IdentityError extends Error {
  override name = 'IdentityError';

  constructor(
    readonly status: number,
    /** Supabase Auth's error code (`invalid_credentials`, `weak_password`, …), or `identity_unavailable`. */
    readonly code: string,
    message: string,
    /** For `weak_password`: `length`, `characters`, `pwned`. */
    readonly reasons: string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An identity account. */
export interface IdentityUser {
  id: string;
  email: string;
  emailConfirmedAt: string | null;
  /** The address an email change waits to confirm. */
  newEmail: string | null;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  createdAt: string;
  /**
   * How many sign-in identities the account has. Zero marks the stand-in user Supabase Auth
   * answers a sign-up for an already registered address with, while confirmation is on.
   */
  identityCount: number;
  /** The account's second factors (TOTP apps), verified or still being set up. */
  factors: IdentityFactor[];
}

/** A second factor of an account. */
export interface IdentityFactor {
  id: string;
  type: string;
  status: 'verified' | 'unverified';
}

/** A TOTP factor just enrolled: what the authenticator app needs, shown once. */
export interface TotpEnrollment {
  factorId: string;
  secret: string;
  uri: string;
  /** The URI as an SVG QR code. */
  qrCodeSvg: string;
}

/** A signed-in session. */
export interface IdentitySession {
  accessToken: string;
  refreshToken: string;
  /** Unix seconds. */
  expiresAt: number;
  expiresIn: number;
  /** The access token's assurance level: `aal2` once a second factor was verified in the session. */
  aal: 'aal1' | 'aal2';
  user: IdentityUser;
}

/** Per-request details passed on to the identity service. */
export interface CallerInfo {
  /** The end user's address, so that the identity service's per-address limits apply to them, not to this server. */
  clientIp?: string;
  /** Where emailed links lead back to (must be allowed by the identity service). */
  redirectTo?: string;
}

/** What `updateUser` may change, with the current password that proves a sensitive change is the member's. */
export interface UserChanges {
  email?: string;
  password?: string;
  data?: Record<string, unknown>;
  /** Sent as `current_password` (Supabase Auth's field). */
  currentPassword?: string;
}

export type VerifyType = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change' | 'email';
export type VerifyParams = { type: VerifyType; tokenHash: string } | { type: VerifyType; email: string; token: string };
