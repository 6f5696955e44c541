import { decodeJwt } from 'jose';
import { check, toUser } from './identity.mappers.js';
import type { IdentityTransport } from './identity.transport.js';
import { UNUSED_REFRESH_TOKEN } from './identity.transport.js';
import type { CallerInfo, IdentityUser, UserChanges } from './identity.types.js';
import { IdentityError } from './identity.types.js';

/** The caller's own account, read and changed with the caller's session. */
export class UserClient {
  constructor(private readonly transport: IdentityTransport) {}

  /** The account of an access token, asked of the identity service (detects ended sessions). */
  async getUser(accessToken: string): Promise<IdentityUser> {
    return toUser(check(await this.transport.userAuth().getUser(accessToken)).user);
  }

  /**
   * Changes the caller's own account: metadata (merged), password (other sessions end), or email
   * (confirmed through emailed links before it takes effect). A password or email change needs
   * `currentPassword` unless the session signed in minutes ago (or, for a password, is a reset's).
   */
  async updateUser(
    session: { accessToken: string; refreshToken?: string },
    { currentPassword, ...attributes }: UserChanges,
    caller: CallerInfo = {},
  ): Promise<IdentityUser> {
    const auth = this.transport.userAuth(caller);
    if (session.refreshToken === undefined) {
      const { exp } = decodeJwt(session.accessToken);
      if (exp !== undefined && exp * 1000 <= Date.now()) {
        throw new IdentityError(401, 'session_expired', 'The access token has expired');
      }
    }
    check(
      await auth.setSession({
        access_token: session.accessToken,
        refresh_token: session.refreshToken ?? UNUSED_REFRESH_TOKEN,
      }),
    );
    const changes = currentPassword === undefined ? attributes : { ...attributes, current_password: currentPassword };
    return toUser(check(await auth.updateUser(changes, { emailRedirectTo: caller.redirectTo })).user);
  }
}
