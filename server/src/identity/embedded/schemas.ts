import { z } from 'zod';

/** A string field that may be absent or null (read as ''), as Go reads JSON into a string. */
export const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** An optional object of metadata. */
export const metadata = z.record(z.string(), z.unknown()).nullish();

/** A PKCE flow's challenge (checked by `readPkce`); the implicit flow sends nulls or nothing here. */
export const pkceFields = { code_challenge: text, code_challenge_method: text };
