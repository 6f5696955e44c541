import type { Live } from '../kernel/live.js';

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
