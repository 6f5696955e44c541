import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The members whose rows the work running now changes, as its caller declared them
 * (`changingMemberRows`); undefined when nothing was declared.
 */
const declared = new AsyncLocalStorage<readonly string[]>();

/**
 * Runs `work`, whose writes change only rows of the members `uids` name (a member's profile, user
 * record, links, photo), so that the answers kept for other members stay (db/commit-watch.ts reads
 * this). A write inside it to any other table still counts as a change to everything. Work that
 * may change which username a member has, or make or end a member, must not be declared this way:
 * a kept answer for a username nobody has names no member.
 */
export function changingMemberRows<T>(uids: readonly string[], work: () => Promise<T>): Promise<T> {
  return declared.run(uids, work);
}

/** The members the running work declared it changes, or undefined. */
export function memberRowsChanging(): readonly string[] | undefined {
  return declared.getStore();
}
