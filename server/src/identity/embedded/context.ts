import type { FastifyBaseLogger } from 'fastify';
import type { DataSource } from 'typeorm';
import type { Config } from '../../config.js';
import type { Mailer } from '../../mail/mail.transport.js';
import type { FactorSecrets } from './factor-secrets.js';
import type { IdentityKeys } from './keys.js';
import type { IdentityLimits } from './rate-limits.js';

/** Everything the embedded identity service's handlers share. */
export interface IdentityContext {
  settings: Config['auth'];
  keys: IdentityKeys;
  dataSource: DataSource;
  mailer: Mailer;
  limits: IdentityLimits;
  /** Encrypts TOTP secrets at rest. */
  factorSecrets: FactorSecrets;
  /** Where people reach the service (links in mail point here), e.g. https://example.org/auth/v1. */
  externalUrl: string;
  /** The audience of user tokens and of requests without `X-JWT-AUD`. */
  audience: string;
  log: FastifyBaseLogger;
}

/** The roles whose tokens may call the admin API. */
export const ADMIN_ROLES = ['service_role', 'supabase_admin'];
/** The role given to new users (GOTRUE_JWT_DEFAULT_GROUP_NAME). */
export const DEFAULT_ROLE = 'authenticated';
