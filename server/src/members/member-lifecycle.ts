/** What happens around an account's end; the billing service cancels subscriptions here. */
export interface AccountLifecycle {
  /** Throws a coded error when the account must not be deleted now; runs before anything changes. */
  checkDeletable(uid: string): Promise<void>;
  /** Runs after the account is marked for deletion and before its identity account is removed. */
  accountDeleting(uid: string): Promise<void>;
}
