import { generate } from 'otplib';

/** The 6-digit code an authenticator app shows for `secret` at `at` (now by default), 30-second steps. */
export function totpCode(secret: string, at = Date.now()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at / 1000), period: 30, digits: 6, algorithm: 'sha1' });
}

/** The secret inside an `otpauth://` URI (what a phone reads from the QR code). */
export function secretOfUri(uri: string): string {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
}
