import { z } from 'zod';
import type { SectionEnv, Shared } from './fields.js';
import { url } from './fields.js';

/** Hosted Supabase Auth: setting SUPABASE_URL chooses it over the embedded service. */
export const identityEnv = {
  SUPABASE_URL: url.optional(),
  SUPABASE_ANON_KEY: z.string().min(1).optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  SUPABASE_JWT_SECRET: z.string().min(32).optional(),
  SUPABASE_JWKS_URL: url.optional(),
  SUPABASE_JWT_ISSUER: z.string().min(1).optional(),
};

export interface IdentitySettings {
  /** `embedded`: this process serves Supabase Auth's contract at /auth/v1; `hosted`: SUPABASE_URL. */
  mode: 'embedded' | 'hosted';
  url: string | undefined;
  anonKey: string | undefined;
  serviceRoleKey: string | undefined;
  jwtSecret: string | undefined;
  jwksUrl: string | undefined;
  issuer: string | undefined;
  audience: 'authenticated';
}

export function identitySettings(env: SectionEnv<typeof identityEnv>, shared: Shared): IdentitySettings {
  if (shared.hosted) {
    if (!env.SUPABASE_ANON_KEY) shared.problems.push('SUPABASE_ANON_KEY: required when SUPABASE_URL is set');
    if (!env.SUPABASE_SERVICE_ROLE_KEY) {
      shared.problems.push('SUPABASE_SERVICE_ROLE_KEY: required when SUPABASE_URL is set');
    }
    if (!env.SUPABASE_JWT_SECRET && !env.SUPABASE_JWKS_URL) {
      shared.problems.push('SUPABASE_JWT_SECRET or SUPABASE_JWKS_URL: one is required to verify access tokens');
    }
  }
  return {
    mode: shared.hosted ? 'hosted' : 'embedded',
    url: env.SUPABASE_URL,
    anonKey: env.SUPABASE_ANON_KEY,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
    jwtSecret: env.SUPABASE_JWT_SECRET,
    jwksUrl: env.SUPABASE_JWKS_URL,
    issuer: env.SUPABASE_JWT_ISSUER,
    audience: 'authenticated',
  };
}
