import { validationFailed } from '../errors.js';

/** supabase-js's default implicit flow sends no code challenge; the PKCE flow is not offered here. */
export function rejectPkce(codeChallenge: string): void {
  if (codeChallenge !== '') {
    throw validationFailed('PKCE flow is not supported by this server; use the implicit flow');
  }
}
