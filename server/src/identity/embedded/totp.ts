/** otplib, loaded at the first enrolment or code rather than at start (start-up time, quality.md P9). */
const otp = () => import('otplib');

/** Supabase Auth's TOTP: SHA-1, 6 digits, 30-second steps, one step of skew either way. */
const PERIOD_S = 30;

/** A new base32 TOTP secret (20 random bytes, as Supabase Auth's TOTP library makes them). */
export async function newTotpSecret(): Promise<string> {
  return (await otp()).generateSecret({ length: 20 });
}

/** The `otpauth://totp/…` URI an authenticator app reads from the QR code. */
export async function totpUri(issuer: string, accountName: string, secret: string): Promise<string> {
  return (await otp()).generateURI({
    issuer,
    label: accountName,
    secret,
    period: PERIOD_S,
    digits: 6,
    algorithm: 'sha1',
  });
}

/** The URI as an SVG QR code with high error correction, as Supabase Auth answers it. */
export async function qrCodeSvg(uri: string): Promise<string> {
  // Loaded at the first enrolment rather than at start, as otplib is.
  const { default: QRCode } = await import('qrcode');
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
  const result = await (
    await otp()
  ).verify({
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
