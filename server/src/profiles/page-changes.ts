import type { Live } from '../kernel/live.js';
import type { AccountLifecycle } from '../members/member-lifecycle.js';

declare module '../kernel/live.js' {
  interface LiveTopics {
    /**
     * The public fields of the page of the member whose uid is the key may have changed (profile,
     * links, photo), or the page was hidden: `profileChanged` subscribers read it afresh.
     */
    profileChanged: Record<string, never>;
  }
}

/** Told, after the change committed, that a member's page changed. */
export type PageChanged = (uid: string) => void;

export const noPageChanges: PageChanged = () => undefined;

/** Publishes a member's page change to `profileChanged` subscribers, on every instance. */
export function publishPageChanges(live: Live): PageChanged {
  return (uid) => {
    live.publish('profileChanged', uid, {});
  };
}

/**
 * Tells `profileChanged` subscribers when an account is being deleted (by the member, an operator
 * or the reconciliation): the page is gone from the moment the account is marked, and their
 * subscriptions end.
 */
export function pageEndsWithAccount(pageChanged: PageChanged): AccountLifecycle {
  return {
    checkDeletable: () => Promise.resolve(),
    accountDeleting: (uid) => {
      pageChanged(uid);
      return Promise.resolve();
    },
  };
}
