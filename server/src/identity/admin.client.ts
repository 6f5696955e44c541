import { check, toIdentityError, toUser } from './identity.mappers.js';
import type { IdentityTransport } from './identity.transport.js';
import type { IdentityUser } from './identity.types.js';

/** Any account, with the service-role key: reading, changing, deleting. */
export class AdminClient {
  constructor(private readonly transport: IdentityTransport) {}

  async getUserById(id: string): Promise<IdentityUser> {
    return toUser(check(await this.transport.admin.getUserById(id)).user);
  }

  /** One page of accounts, newest first, with the total count. */
  async listUsers(page = 1, perPage = 50): Promise<{ users: IdentityUser[]; total: number; lastPage: number }> {
    const result = await this.transport.admin.listUsers({ page, perPage });
    if (result.error) throw toIdentityError(result.error);
    return { users: result.data.users.map(toUser), total: result.data.total, lastPage: result.data.lastPage };
  }

  /**
   * Changes an account as an administrator. `appMetadata` is merged (null deletes a key) and
   * appears in every access token issued afterwards; a new password ends every session.
   */
  async updateUserById(
    id: string,
    attributes: {
      email?: string;
      password?: string;
      emailConfirm?: boolean;
      userMetadata?: Record<string, unknown>;
      appMetadata?: Record<string, unknown>;
      banDuration?: string;
    },
  ): Promise<IdentityUser> {
    const data = check(
      await this.transport.admin.updateUserById(id, {
        email: attributes.email,
        password: attributes.password,
        email_confirm: attributes.emailConfirm,
        user_metadata: attributes.userMetadata,
        app_metadata: attributes.appMetadata,
        ban_duration: attributes.banDuration,
      }),
    );
    return toUser(data.user);
  }

  /** Deletes one of an account's second factors (a lost phone); the sessions it raised fall to aal1. */
  async deleteFactorById(userId: string, factorId: string): Promise<void> {
    const { error } = await this.transport.admin.mfa.deleteFactor({ userId, id: factorId });
    if (error) throw toIdentityError(error);
  }

  /** Deletes an account with its sessions. */
  async deleteUser(id: string): Promise<void> {
    check(await this.transport.admin.deleteUser(id));
  }
}
