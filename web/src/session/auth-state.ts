import type { AuthMember_MemberFragment, AuthSession_SessionFragment } from './session.generated';
import type { Session } from './session';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface AuthSnapshot {
  /** `loading` until the first auth state is known. */
  status: AuthStatus;
  session: Session | null;
  /** The paid flag: the access token's `stripeRole` claim is `plus`. */
  stripe: boolean;
  /** The signed-in member as the cache holds it (`me`); null until it has arrived. */
  member: AuthMember_MemberFragment | null;
  /** Why the member could not be loaded, while the session itself is fine. */
  memberError: Error | null;
}

export const SIGNED_OUT: AuthSnapshot = {
  status: 'signedOut',
  session: null,
  stripe: false,
  member: null,
  memberError: null,
};

/** The session as it was before a request (see `AuthClient.mark`). */
export interface SessionMark {
  readonly epoch: number;
}

/**
 * What the API answers when it signs a member in: the session and the member. The member is null
 * while the session still waits for its second factor (a password alone reads nothing private).
 */
export interface SessionPayload {
  session: AuthSession_SessionFragment;
  member: AuthMember_MemberFragment | null;
}

/** The auth state React reads (useSyncExternalStore's store): one snapshot, replaced whole on each change. */
export class AuthState {
  private readonly listeners = new Set<() => void>();

  constructor(private snapshot: AuthSnapshot) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): AuthSnapshot => this.snapshot;

  set(snapshot: AuthSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}
