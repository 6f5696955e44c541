import { check, tokenAssurance, toUser } from './identity.mappers.js';
import type { IdentityTransport } from './identity.transport.js';
import type { CallerInfo, IdentitySession, TotpEnrollment } from './identity.types.js';

/** The session's own second factors (TOTP): enrolling, verifying, removing. */
export class FactorClient {
  constructor(private readonly transport: IdentityTransport) {}

  /** Enrolls a TOTP factor for the session's account (unverified until a code confirms it). */
  async enrollTotp(session: { accessToken: string }, friendlyName: string): Promise<TotpEnrollment> {
    const auth = await this.transport.sessionAuth(session);
    const data = check(await auth.mfa.enroll({ factorType: 'totp', friendlyName }));
    // supabase-js hands the SVG over as a data URI; the API answers the document itself.
    const qrCodeSvg = data.totp.qr_code.replace(/^data:image\/svg\+xml;utf-8,/, '');
    return { factorId: data.id, secret: data.totp.secret, uri: data.totp.uri, qrCodeSvg };
  }

  /**
   * Challenges a factor and answers it with `code`: the factor becomes verified and the session
   * rises to aal2. Returns the new session (the old refresh token no longer works).
   */
  async verifyTotp(
    session: { accessToken: string },
    factorId: string,
    code: string,
    caller: CallerInfo = {},
  ): Promise<IdentitySession> {
    const auth = await this.transport.sessionAuth(session, caller);
    const data = check(await auth.mfa.challengeAndVerify({ factorId, code }));
    return {
      accessToken: data.access_token,
      refreshToken: data.refresh_token,
      expiresAt: Math.floor(Date.now() / 1000) + data.expires_in,
      expiresIn: data.expires_in,
      aal: tokenAssurance(data.access_token),
      user: toUser(data.user),
    };
  }

  /** Removes a factor of the session's account (a verified one needs an aal2 session). */
  async unenrollFactor(session: { accessToken: string }, factorId: string): Promise<void> {
    const auth = await this.transport.sessionAuth(session);
    check(await auth.mfa.unenroll({ factorId }));
  }
}
