import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/** Supabase Auth's TOTP: SHA-1, 6 digits, 30-second steps, one step of skew either way. */
const PERIOD_S = 30;

/** A new base32 TOTP secret (20 random bytes, as Supabase Auth's TOTP library makes them). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://totp/…` URI an authenticator app reads from the QR code. */
export function totpUri(issuer: string, accountName: string, secret: string): string {
  return generateURI({ issuer, label: accountName, secret, period: PERIOD_S, digits: 6, algorithm: 'sha1' });
}

/** The URI as an SVG QR code with high error correction, as Supabase Auth answers it. */
export function qrCodeSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H', margin: 1 });
}

/**
 * The time step of the code when `code` is right for `secret` now (within a step either way) and
 * newer than `afterStep`, else undefined: a code once accepted cannot be used again.
 */
export async function acceptedStep(
  secret: string,
  code: string,
  afterStep: number | null,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    period: PERIOD_S,
    digits: 6,
    algorithm: 'sha1',
    epochTolerance: PERIOD_S,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
