import { z } from 'zod';
import type { SectionEnv, Shared } from './fields.js';
import { bool, list, origins, positive, seconds, url } from './fields.js';
import type { SigningJwk } from './jwt-keys.js';
import { parseJwtKeys } from './jwt-keys.js';

/** The embedded identity service, its switches named after Supabase Auth's (GOTRUE_*). */
export const authEnv = {
  AUTH_JWT_SECRET: z.string().min(32).optional(),
  AUTH_JWT_KEYS: z.string().min(2).optional(),
  AUTH_JWT_ISSUER: z.string().min(1).optional(),
  AUTH_JWT_EXP: positive.default(3600),
  // Supabase Auth's range, so a project moving from Supabase keeps its setting; the default stays 8.
  AUTH_PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(72).default(8),
  AUTH_DISABLE_SIGNUP: bool.default(false),
  AUTH_AUTOCONFIRM: bool.default(true),
  AUTH_REFRESH_TOKEN_ROTATION: bool.default(true),
  AUTH_REFRESH_TOKEN_REUSE_INTERVAL: seconds.default(10),
  AUTH_SECURE_EMAIL_CHANGE: bool.default(true),
  AUTH_REAUTHENTICATION_WINDOW: seconds.default(900),
  AUTH_OTP_EXP: positive.default(3600),
  AUTH_SMTP_MAX_FREQUENCY: seconds.default(60),
  AUTH_RATE_LIMIT_EMAIL_SENT: positive.default(30),
  AUTH_RATE_LIMIT_TOKEN: positive.default(150),
  AUTH_RATE_LIMIT_TOKEN_BURST: positive.default(30),
  AUTH_RATE_LIMIT_OTP: positive.default(30),
  AUTH_RATE_LIMIT_VERIFY: positive.default(30),
  AUTH_SITE_URL: url.optional(),
  AUTH_URI_ALLOW_LIST: list.optional(),
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as example.org (no scheme, port or path)')
    .optional(),
  WEBAUTHN_RP_NAME: z.string().min(1).default('Lampstand'),
  WEBAUTHN_ORIGINS: origins.optional(),
  AUTH_MFA_ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64url').length === 32, 'must be 32 bytes in base64 or base64url')
    .optional(),
  AUTH_MFA_TOTP_ENROLL_ENABLED: bool.default(true),
  AUTH_MFA_TOTP_VERIFY_ENABLED: bool.default(true),
  AUTH_MFA_MAX_ENROLLED_FACTORS: positive.default(10),
  AUTH_MFA_MAX_VERIFIED_FACTORS: positive.default(10),
  AUTH_MFA_CHALLENGE_EXPIRY_DURATION: positive.default(300),
  AUTH_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: positive.default(15),
};

/** The embedded identity service (used when `identity.mode` is `embedded`), named after Supabase Auth's switches. */
export interface AuthSettings {
  /** HS256 secret; with neither this nor `jwtKeys`, a development secret is generated in `dataDir`. */
  jwtSecret: string | undefined;
  /** Private JWKs (GOTRUE_JWT_KEYS); exactly one signs, all verify; the public ones are published. */
  jwtKeys: SigningJwk[] | undefined;
  /** The `iss` claim of issued tokens (default: PUBLIC_URL + /auth/v1, as the Supabase CLI does). */
  jwtIssuer: string;
  jwtExp: number;
  passwordMinLength: number;
  disableSignup: boolean;
  autoconfirm: boolean;
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  secureEmailChange: boolean;
  /**
   * Seconds after a sign-in (password or second factor) during which its session may change the
   * password or email, or remove a factor, without the current password or the reauthentication
   * nonce; also how long a session from an emailed link may set a password (once).
   */
  reauthenticationWindow: number;
  otpExp: number;
  smtpMaxFrequency: number;
  /** Per client address: token grants per 5 min (burst), sign-up/recover/user update and verify per 5 min; mails per hour, globally. */
  rateLimits: { emailSent: number; token: number; tokenBurst: number; otp: number; verify: number };
  siteUrl: string;
  uriAllowList: string[];
  /** Multi-factor sign-in (GOTRUE_MFA_*): TOTP switches, factor limits, challenge lifetime (s), tries per minute. */
  mfa: {
    /** AES-256-GCM key of stored TOTP secrets; without it a development key is generated in `dataDir`. */
    encryptionKey: Buffer | undefined;
    totpEnrollEnabled: boolean;
    totpVerifyEnabled: boolean;
    maxEnrolledFactors: number;
    maxVerifiedFactors: number;
    challengeExpiry: number;
    rateLimitChallengeAndVerify: number;
  };
  /** Passkeys (WebAuthn): the relying party id and name, and the origins a ceremony may come from. */
  webauthn: { rpId: string; rpName: string; origins: string[] };
}

type AuthEnv = SectionEnv<typeof authEnv>;

/** Where the web dev server (`npm run dev`, Vite) runs: emailed links may lead back to it in development. */
const DEV_WEB_REDIRECTS = ['http://localhost:5173/**', 'http://127.0.0.1:5173/**'];

const DEV_SECRET_HINT = 'set it to a long random value (for example: openssl rand -base64 48)';

export function authSettings(env: AuthEnv, shared: Shared): AuthSettings {
  const { nodeEnv, publicUrl, problems } = shared;
  const jwtKeys = env.AUTH_JWT_KEYS === undefined ? undefined : parseJwtKeys(env.AUTH_JWT_KEYS, problems);
  if (nodeEnv === 'production' && !shared.hosted) {
    if (!env.AUTH_JWT_SECRET && !env.AUTH_JWT_KEYS) {
      problems.push(`AUTH_JWT_SECRET: production refuses the generated development secret; ${DEV_SECRET_HINT}`);
    }
    if (!env.AUTH_MFA_ENCRYPTION_KEY) {
      problems.push(
        'AUTH_MFA_ENCRYPTION_KEY: production refuses the generated development key; set 32 random bytes in base64url (for example: openssl rand -base64 32)',
      );
    }
  }
  return {
    jwtSecret: env.AUTH_JWT_SECRET,
    jwtKeys,
    jwtIssuer: env.AUTH_JWT_ISSUER ?? `${publicUrl}/auth/v1`,
    jwtExp: env.AUTH_JWT_EXP,
    passwordMinLength: env.AUTH_PASSWORD_MIN_LENGTH,
    disableSignup: env.AUTH_DISABLE_SIGNUP,
    autoconfirm: env.AUTH_AUTOCONFIRM,
    refreshTokenRotation: env.AUTH_REFRESH_TOKEN_ROTATION,
    refreshTokenReuseInterval: env.AUTH_REFRESH_TOKEN_REUSE_INTERVAL,
    secureEmailChange: env.AUTH_SECURE_EMAIL_CHANGE,
    reauthenticationWindow: env.AUTH_REAUTHENTICATION_WINDOW,
    otpExp: env.AUTH_OTP_EXP,
    smtpMaxFrequency: env.AUTH_SMTP_MAX_FREQUENCY,
    rateLimits: {
      emailSent: env.AUTH_RATE_LIMIT_EMAIL_SENT,
      token: env.AUTH_RATE_LIMIT_TOKEN,
      tokenBurst: env.AUTH_RATE_LIMIT_TOKEN_BURST,
      otp: env.AUTH_RATE_LIMIT_OTP,
      verify: env.AUTH_RATE_LIMIT_VERIFY,
    },
    siteUrl: (env.AUTH_SITE_URL ?? publicUrl).replace(/\/+$/, ''),
    // Development lists the web dev server (`npm run dev`); elsewhere only what is configured.
    uriAllowList: env.AUTH_URI_ALLOW_LIST ?? (nodeEnv === 'development' ? DEV_WEB_REDIRECTS : []),
    mfa: {
      encryptionKey:
        env.AUTH_MFA_ENCRYPTION_KEY === undefined ? undefined : Buffer.from(env.AUTH_MFA_ENCRYPTION_KEY, 'base64url'),
      totpEnrollEnabled: env.AUTH_MFA_TOTP_ENROLL_ENABLED,
      totpVerifyEnabled: env.AUTH_MFA_TOTP_VERIFY_ENABLED,
      maxEnrolledFactors: env.AUTH_MFA_MAX_ENROLLED_FACTORS,
      maxVerifiedFactors: env.AUTH_MFA_MAX_VERIFIED_FACTORS,
      challengeExpiry: env.AUTH_MFA_CHALLENGE_EXPIRY_DURATION,
      rateLimitChallengeAndVerify: env.AUTH_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY,
    },
    webauthn: webauthnSettings(env, publicUrl, problems),
  };
}

/**
 * WEBAUTHN_RP_ID defaults to PUBLIC_URL's host and WEBAUTHN_ORIGINS to PUBLIC_URL's origin; every
 * origin must be the relying party id's host or one of its subdomains, as browsers require.
 */
function webauthnSettings(env: AuthEnv, publicUrl: string, problems: string[]): AuthSettings['webauthn'] {
  const rpId = (env.WEBAUTHN_RP_ID ?? new URL(publicUrl).hostname).toLowerCase();
  const origins = env.WEBAUTHN_ORIGINS ?? [new URL(publicUrl).origin];
  for (const origin of origins) {
    const host = new URL(origin).hostname;
    if (host !== rpId && !host.endsWith(`.${rpId}`)) {
      problems.push(`WEBAUTHN_ORIGINS: ${origin} is not on WEBAUTHN_RP_ID ${rpId} or a subdomain of it`);
    }
  }
  return { rpId, rpName: env.WEBAUTHN_RP_NAME, origins };
}
