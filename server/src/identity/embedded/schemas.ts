import { z } from 'zod';

/** A string field that may be absent or null (read as ''), as Go reads JSON into a string. */
export const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** An optional object of metadata. */
export const metadata = z.record(z.string(), z.unknown()).nullish();

/** PKCE is not offered by this service; the implicit flow supabase-js uses by default sends nulls here. */
export const pkceFields = { code_challenge: text, code_challenge_method: text };
