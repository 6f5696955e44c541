import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JWK } from 'jose';
import { z } from 'zod';

/** The repository root: server/src/config.ts and server/dist/config.js both sit two levels below it. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

const seconds = z.coerce.number().int().min(0);
const positive = z.coerce.number().int().positive();
const url = z.url({ protocol: /^https?$/ });
const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);
/** Comma-separated web origins (`https://church.example`), each kept as its canonical origin. */
const origins = list.transform((items, context) => {
  const canonical: string[] = [];
  for (const item of items) {
    const parsed = URL.canParse(item) ? new URL(item) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== item.replace(/\/+$/, '')) {
      context.addIssue({ code: 'custom', message: `must be origins like https://example.org (not ${item})` });
      return z.NEVER;
    }
    canonical.push(parsed.origin);
  }
  return canonical;
});

/** proxy-addr's names for address ranges, accepted by Fastify's `trustProxy` beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether `value` is an IP address, a CIDR (`10.0.0.0/8`, `fd00::/8`) or one of proxy-addr's range names. */
function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (version === 4 && isIP(prefix) === 4) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: a boolean (`true`, `false`, `yes`, …), a number of proxy hops in front of the
 * server (`1`: believe the nearest proxy only), or a comma-separated list of proxy addresses/CIDRs.
 */
const trustProxy = z.string().transform((value, context): boolean | number | string[] => {
  const word = value.trim().toLowerCase();
  if (/^\d+$/.test(word)) return Number(word) === 0 ? false : Number(word);
  const asBool = bool.safeParse(word);
  if (asBool.success) return asBool.data;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const wrong = items.filter((item) => !isProxyAddress(item));
  if (items.length === 0 || wrong.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `must be true, false, a number of proxy hops, or comma-separated IP addresses/CIDRs (not ${wrong.join(', ') || 'empty'})`,
    });
    return z.NEVER;
  }
  return items;
});

/** Hosts of the mail catchers used in development (Mailpit and its elders), which deliver nothing. */
const MAIL_CATCHER_HOST = /(^|[.-])(mailpit|mailhog|mailcatcher|maildev)([.-]|$)/i;

/**
 * Whether an SMTP URL points at a mail catcher rather than a relay: a loopback or unspecified
 * address, a catcher's usual host name, or Mailpit's and MailHog's port 1025.
 */
export function isLocalMailCatcher(smtpUrl: string): boolean {
  const { hostname, port } = new URL(smtpUrl);
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.startsWith('127.') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    host === '::';
  return loopback || MAIL_CATCHER_HOST.test(host) || port === '1025';
}

/** Where the web dev server (`npm run dev`, Vite) runs: emailed links may lead back to it in development. */
const DEV_WEB_REDIRECTS = ['http://localhost:5173/**', 'http://127.0.0.1:5173/**'];

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: url.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy.default(false),
  DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SQLITE_FILE: z.string().min(1).optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  CORS_ORIGINS: origins.optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  GRAPHQL_INTROSPECTION: bool.default(true),
  GRAPHQL_LEAN_PUBLIC: bool.default(true),
  GRAPHQL_ANSWER_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  HEAVY_THREADS: z.coerce.number().int().min(1).max(16).optional(),
  HEAVY_QUEUE: z.coerce.number().int().min(0).max(1000).default(16),
  RENDER_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  RENDERS_PER_MINUTE: positive.default(20),
  PHOTO_UPLOADS_PER_HOUR: positive.default(10),
  RECONCILE_ON_START: bool.default(true),
  RECONCILE_GRACE_SECONDS: seconds.default(300),

  SUPABASE_URL: url.optional(),
  SUPABASE_ANON_KEY: z.string().min(1).optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  SUPABASE_JWT_SECRET: z.string().min(32).optional(),
  SUPABASE_JWKS_URL: url.optional(),
  SUPABASE_JWT_ISSUER: z.string().min(1).optional(),

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

  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SMTP_ALLOW_LOCAL: bool.default(false),
  MAIL_FROM: z.string().min(3).default('Lampstand <no-reply@lampstand.local>'),

  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_BASE: url.optional(),
  STRIPE_ROLE_METADATA_KEY: z.string().min(1).default('role'),
  PLUS_GRACE_PERIOD_DAYS: seconds.default(7),

  GTM_CONTAINER_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]+$/, 'must look like GTM-XXXXXXX')
    .optional(),
  SUPPORT_EMAIL: z
    .string()
    .regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, 'must be an email address such as help@example.org')
    .optional(),
});

/** Environment variables the configuration reads, by name. */
export type Env = Partial<Record<keyof z.input<typeof envSchema>, string>>;

/** Validated settings of one server process. Built once at start; nothing else reads `process.env`. */
export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * Fastify's `trustProxy`: false, true, the number of proxy hops whose X-Forwarded-For is believed,
   * or the proxy addresses/CIDRs it is believed from.
   */
  trustProxy: boolean | number | string[];
  dataDir: string;
  database: { type: 'sqlite'; file: string } | { type: 'postgres'; url: string };
  webDistDir: string;
  /** The web app's server rendering (web/src/ssr.tsx's build): `dist-ssr/` beside the build, never served. */
  webSsrDir: string;
  redisUrl: string | undefined;
  /** Web origins besides PUBLIC_URL's that may call every API from a browser (public queries are open to all). */
  corsOrigins: string[];
  /** Where Prometheus reads `/metrics`, on HOST; none when undefined. Never the public port. */
  metricsPort: number | undefined;
  /**
   * `leanPublic`: queries (anonymous ones of public fields only) and the public mutations are
   * answered by the lean executor (graphql/public-executor.ts) instead of Apollo's pipeline, with the
   * same answers; the anonymous queries of cached fields are kept whole in up to `answerCacheMb` MB
   * (0: none kept).
   */
  graphql: { introspection: boolean; leanPublic: boolean; answerCacheMb: number };
  /**
   * Heavy work (photo decoding; card and QR drawing): at most `threads` at once (undefined: all
   * cores but one, at most four) and `queue` of each kind waiting, then 503; drawn images kept in `cacheMb` MB;
   * new drawings per client address per minute; photo uploads per member per hour.
   */
  heavy: {
    threads: number | undefined;
    queue: number;
    cacheMb: number;
    rendersPerMinute: number;
    uploadsPerHour: number;
  };
  /** Accounts vs identity repair once the server listens; it leaves accounts younger than the grace alone. */
  reconcile: { onStart: boolean; graceSeconds: number };
  identity: {
    /** `embedded`: this process serves Supabase Auth's contract at /auth/v1; `hosted`: SUPABASE_URL. */
    mode: 'embedded' | 'hosted';
    url: string | undefined;
    anonKey: string | undefined;
    serviceRoleKey: string | undefined;
    jwtSecret: string | undefined;
    jwksUrl: string | undefined;
    issuer: string | undefined;
    audience: 'authenticated';
  };
  /** The embedded identity service (used when `identity.mode` is `embedded`), named after Supabase Auth's switches. */
  auth: {
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
  };
  mail: { smtpUrl: string | undefined; from: string };
  billing: {
    stripeSecretKey: string | undefined;
    stripeWebhookSecret: string | undefined;
    stripeApiBase: string | undefined;
    roleMetadataKey: string;
    graceDays: number;
  };
  /** `supportEmail`: where members ask for help (a lost phone), shown in the web app; none when undefined. */
  web: { gtmContainerId: string | undefined; supportEmail: string | undefined };
}

/** One private JWK of AUTH_JWT_KEYS, with its algorithm resolved. */
export type SigningJwk = JWK & { kid: string; alg: SigningAlgorithm };

export const SIGNING_ALGORITHMS = ['RS256', 'RS512', 'ES256', 'ES512', 'EdDSA', 'HS256'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function inferAlgorithm(key: Record<string, unknown>): unknown {
  if (key.alg !== undefined) return key.alg;
  if (key.kty === 'RSA') return 'RS256';
  if (key.kty === 'EC' && key.crv === 'P-256') return 'ES256';
  if (key.kty === 'EC' && key.crv === 'P-521') return 'ES512';
  if (key.kty === 'OKP' && key.crv === 'Ed25519') return 'EdDSA';
  if (key.kty === 'oct') return 'HS256';
  return undefined;
}

/** Parses AUTH_JWT_KEYS; puts the signing key first. Problems are pushed onto `problems`. */
function parseJwtKeys(value: string, problems: string[]): SigningJwk[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    problems.push('AUTH_JWT_KEYS: must be a JSON array of JWKs');
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    problems.push('AUTH_JWT_KEYS: must be a non-empty JSON array of JWKs');
    return undefined;
  }
  const keys: SigningJwk[] = [];
  for (const [index, item] of (parsed as unknown[]).entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(`AUTH_JWT_KEYS[${index}]: must be a JWK object`);
      continue;
    }
    const key = item as Record<string, unknown>;
    const alg = inferAlgorithm(key);
    if (typeof key.kid !== 'string' || key.kid === '') problems.push(`AUTH_JWT_KEYS[${index}]: needs a "kid"`);
    else if (!SIGNING_ALGORITHMS.includes(alg as SigningAlgorithm)) {
      problems.push(`AUTH_JWT_KEYS[${index}]: algorithm must be one of ${SIGNING_ALGORITHMS.join(', ')}`);
    } else if (key.kty !== 'oct' && typeof key.d !== 'string') {
      problems.push(`AUTH_JWT_KEYS[${index}]: must be a private key (with "d")`);
    } else keys.push({ ...key, kid: key.kid, alg: alg as SigningAlgorithm });
  }
  const signing = keys.filter((key) => key.key_ops?.includes('sign'));
  if (keys.length > 1 && signing.length !== 1) {
    problems.push('AUTH_JWT_KEYS: exactly one key must have "sign" in its key_ops');
    return undefined;
  }
  const signer = signing[0] ?? keys[0];
  return signer ? [signer, ...keys.filter((key) => key !== signer)] : undefined;
}

const DEV_SECRET_HINT = 'set it to a long random value (for example: openssl rand -base64 48)';

/**
 * Validates the environment and returns the settings. Throws a ConfigError naming every wrong
 * variable. `source` defaults to the process environment (plus `.env` at the repository root, which
 * does not override variables already set).
 */
export function loadConfig(source?: Record<string, string | undefined>): Config {
  let raw = source;
  if (raw === undefined) {
    const envFile = path.join(projectRoot, '.env');
    if (existsSync(envFile)) process.loadEnvFile(envFile);
    raw = process.env;
  }
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(projectRoot, env.DATA_DIR ?? 'data');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const hosted = env.SUPABASE_URL !== undefined;

  const problems: string[] = [];
  const jwtKeys = env.AUTH_JWT_KEYS === undefined ? undefined : parseJwtKeys(env.AUTH_JWT_KEYS, problems);
  if (hosted) {
    if (!env.SUPABASE_ANON_KEY) problems.push('SUPABASE_ANON_KEY: required when SUPABASE_URL is set');
    if (!env.SUPABASE_SERVICE_ROLE_KEY) problems.push('SUPABASE_SERVICE_ROLE_KEY: required when SUPABASE_URL is set');
    if (!env.SUPABASE_JWT_SECRET && !env.SUPABASE_JWKS_URL) {
      problems.push('SUPABASE_JWT_SECRET or SUPABASE_JWKS_URL: one is required to verify access tokens');
    }
  }
  if (env.NODE_ENV === 'production') {
    if (!hosted && !env.AUTH_JWT_SECRET && !env.AUTH_JWT_KEYS) {
      problems.push(`AUTH_JWT_SECRET: production refuses the generated development secret; ${DEV_SECRET_HINT}`);
    }
    if (!hosted && !env.AUTH_MFA_ENCRYPTION_KEY) {
      problems.push(
        'AUTH_MFA_ENCRYPTION_KEY: production refuses the generated development key; set 32 random bytes in base64url (for example: openssl rand -base64 32)',
      );
    }
    if (!env.PUBLIC_URL) problems.push('PUBLIC_URL: required in production (links in mail and checkout use it)');
    // The development outbox logs every link it keeps: live sign-in tokens must not reach production
    // logs. Hosted identity mails accounts itself, but the morning verse is ours to send.
    if (!env.SMTP_URL) {
      problems.push(
        hosted
          ? 'SMTP_URL: required in production (the morning verse email is sent through it, not by Supabase)'
          : 'SMTP_URL: required in production (without it account mail goes to the development outbox)',
      );
    } else if (!env.SMTP_ALLOW_LOCAL && isLocalMailCatcher(env.SMTP_URL)) {
      problems.push(
        `SMTP_URL: ${new URL(env.SMTP_URL).host} looks like a local mail catcher (Mailpit, loopback), which delivers nothing; set a real relay, or SMTP_ALLOW_LOCAL=true if this is deliberate`,
      );
    }
  }
  if ((env.STRIPE_SECRET_KEY === undefined) !== (env.STRIPE_WEBHOOK_SECRET === undefined)) {
    problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both or neither');
  }
  const webauthn = webauthnSettings(env, publicUrl, problems);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }

  const webDistDir = path.resolve(projectRoot, env.WEB_DIST_DIR ?? 'web/dist');
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    dataDir,
    database: env.DATABASE_URL
      ? { type: 'postgres', url: env.DATABASE_URL }
      : { type: 'sqlite', file: path.resolve(dataDir, env.SQLITE_FILE ?? 'lampstand.sqlite') },
    webDistDir,
    webSsrDir: path.join(path.dirname(webDistDir), 'dist-ssr'),
    redisUrl: env.REDIS_URL,
    corsOrigins: env.CORS_ORIGINS ?? [],
    metricsPort: env.METRICS_PORT,
    graphql: {
      introspection: env.GRAPHQL_INTROSPECTION,
      leanPublic: env.GRAPHQL_LEAN_PUBLIC,
      answerCacheMb: env.GRAPHQL_ANSWER_CACHE_MB,
    },
    heavy: {
      threads: env.HEAVY_THREADS,
      queue: env.HEAVY_QUEUE,
      cacheMb: env.RENDER_CACHE_MB,
      rendersPerMinute: env.RENDERS_PER_MINUTE,
      uploadsPerHour: env.PHOTO_UPLOADS_PER_HOUR,
    },
    reconcile: { onStart: env.RECONCILE_ON_START, graceSeconds: env.RECONCILE_GRACE_SECONDS },
    identity: {
      mode: hosted ? 'hosted' : 'embedded',
      url: env.SUPABASE_URL,
      anonKey: env.SUPABASE_ANON_KEY,
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
      jwtSecret: env.SUPABASE_JWT_SECRET,
      jwksUrl: env.SUPABASE_JWKS_URL,
      issuer: env.SUPABASE_JWT_ISSUER,
      audience: 'authenticated',
    },
    auth: {
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
      uriAllowList: env.AUTH_URI_ALLOW_LIST ?? (env.NODE_ENV === 'development' ? DEV_WEB_REDIRECTS : []),
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
      webauthn,
    },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    billing: {
      stripeSecretKey: env.STRIPE_SECRET_KEY,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
      stripeApiBase: env.STRIPE_API_BASE,
      roleMetadataKey: env.STRIPE_ROLE_METADATA_KEY,
      graceDays: env.PLUS_GRACE_PERIOD_DAYS,
    },
    web: { gtmContainerId: env.GTM_CONTAINER_ID, supportEmail: env.SUPPORT_EMAIL },
  };
}

/**
 * WEBAUTHN_RP_ID defaults to PUBLIC_URL's host and WEBAUTHN_ORIGINS to PUBLIC_URL's origin; every
 * origin must be the relying party id's host or one of its subdomains, as browsers require.
 */
function webauthnSettings(
  env: z.infer<typeof envSchema>,
  publicUrl: string,
  problems: string[],
): Config['auth']['webauthn'] {
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
