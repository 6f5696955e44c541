/**
 * The limits of prayer requests, the same on the visitor's form, the member's settings and the
 * server (`@rules/prayer` in the web).
 */

/** A request's words, in characters (code points); a longer one is refused, never cut. */
export const MAX_PRAYER_REQUEST_LENGTH = 1000;

/** The visitor's first name, optional. */
export const MAX_PRAYER_FIRST_NAME_LENGTH = 50;

/** A Plus member's own words over the form. */
export const MAX_PRAYER_PROMPT_LENGTH = 200;

/** The member's reply, sent by mail. */
export const MAX_PRAYER_REPLY_LENGTH = 2000;

/** How many days a member may keep requests; 90 unless they choose. */
export const PRAYER_RETENTION_DAYS: readonly number[] = [30, 90, 365];
export const DEFAULT_PRAYER_RETENTION_DAYS = 90;

/** The words over the form when the member chose none. */
export const DEFAULT_PRAYER_PROMPT = 'How can I pray for you?';
