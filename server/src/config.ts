import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AuthSettings } from './config/auth.js';
import { authEnv, authSettings } from './config/auth.js';
import type { BillingSettings } from './config/billing.js';
import { billingEnv, billingSettings } from './config/billing.js';
import type { Shared } from './config/fields.js';
import type { IdentitySettings } from './config/identity.js';
import { identityEnv, identitySettings } from './config/identity.js';
import type { MailSettings } from './config/mail.js';
import { mailEnv, mailSettings } from './config/mail.js';
import { projectRoot } from './config/root.js';
import type { ServerSettings } from './config/server.js';
import { serverEnv, serverSettings } from './config/server.js';
import type { SubscriptionSettings } from './config/subscriptions.js';
import { subscriptionSettings, subscriptionsEnv } from './config/subscriptions.js';
import type { WebSettings } from './config/web.js';
import { webEnv, webSettings } from './config/web.js';

export { projectRoot } from './config/root.js';
export { SIGNING_ALGORITHMS } from './config/jwt-keys.js';
export type { SigningAlgorithm, SigningJwk } from './config/jwt-keys.js';

/** Every variable the server reads, section by section (one file each under config/). */
export const envSchema = z.object({
  ...serverEnv,
  ...identityEnv,
  ...authEnv,
  ...mailEnv,
  ...billingEnv,
  ...webEnv,
  ...subscriptionsEnv,
});

/** Environment variables the configuration reads, by name. */
export type Env = Partial<Record<keyof z.input<typeof envSchema>, string>>;

/** Validated settings of one server process. Built once at start; nothing else reads `process.env`. */
export interface Config extends ServerSettings {
  identity: IdentitySettings;
  auth: AuthSettings;
  mail: MailSettings;
  billing: BillingSettings;
  web: WebSettings;
  subscriptions: SubscriptionSettings;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

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
  const shared: Shared = {
    nodeEnv: env.NODE_ENV,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    hosted: env.SUPABASE_URL !== undefined,
    problems: [],
  };
  const config: Config = {
    ...serverSettings(env, shared),
    identity: identitySettings(env, shared),
    auth: authSettings(env, shared),
    mail: mailSettings(env, shared),
    billing: billingSettings(env, shared),
    web: webSettings(env),
    subscriptions: subscriptionSettings(env),
  };
  if (shared.problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${shared.problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
  return config;
}
