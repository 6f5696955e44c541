import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import { commitNotices } from '../db/commit-notices.js';
import { watchCommits } from '../db/commit-watch.js';
import { sqliteReadNow } from '../db/sqlite-serial.js';
import { AnswerCache } from '../graphql/answer-cache.js';

/**
 * The root fields whose anonymous answers are kept: each reads only the database and the clock (so
 * a query of them alone may also run compiled, and again through graphql-js: graphql/public-executor.ts).
 */
export const CACHED_FIELDS: ReadonlySet<string> = new Set(['profile', 'verse', 'verseOfTheDay']);

/**
 * Tables no public answer reads (those read `users`, `profiles`, `links`, `profile_photos` and
 * `verses`), among them the ones written often: a write to one of them keeps the answers. A write
 * to any other table (or a statement whose table is not plain to see) empties the cache.
 */
const PRIVATE_TABLES: ReadonlySet<string> = new Set([
  'page_view_days',
  'link_click_days',
  'auth_users',
  'auth_sessions',
  'auth_refresh_tokens',
  'auth_one_time_tokens',
  'auth_flow_states',
  'auth_mfa_challenges',
  'job_leases',
  'mail_outbox',
  'audit_log',
  'billing_events',
  'verse_mail_sends',
  'reports',
  'prayer_requests',
  'prayer_challenges',
]);

/**
 * The tables of members' rows, all keyed by the member's uid, which the public answers read only
 * through the loaders that note each uid read (app/loaders.ts): a write to them declared with
 * `changingMemberRows` drops only the answers that read those members.
 */
const MEMBER_TABLES: ReadonlySet<string> = new Set(['users', 'profiles', 'links', 'profile_photos']);

/** The PostgreSQL channel commits are announced on (instances and the admin command share it). */
const CHANNEL = 'lampstand_answers';

/**
 * The cache of public answers (when `maxChars` is above 0 and the lean executor runs) and what
 * keeps every instance's cache true, installed whether or not this process keeps answers (the
 * admin command writes too): every change made through `dataSource` drops the local answers that
 * read the members it changed, or all of them when it is not declared as a change to some members'
 * rows; on PostgreSQL each commit is also announced (NOTIFY, naming those members) to every other
 * process on the database, once
 * at start too (this process may have just migrated), and a cache is off while its instance is
 * not listening; on SQLite, a commit by another process (the admin command) moves the file's
 * `data_version`, read before a kept answer is served (at most every 50 ms).
 */
export function publicAnswerCache(
  app: FastifyInstance,
  dataSource: DataSource,
  options: { maxChars: number; serve: boolean },
): { cache: AnswerCache; fields: ReadonlySet<string> } | undefined {
  const readNow = sqliteReadNow(dataSource);
  const cache =
    options.serve && options.maxChars > 0
      ? new AnswerCache({
          maxChars: options.maxChars,
          externalVersion: readNow
            ? () => {
                const version = readNow('PRAGMA data_version', [])?.[0]?.data_version;
                return typeof version === 'number' ? version : undefined;
              }
            : undefined,
        })
      : undefined;
  const notices = commitNotices(dataSource, {
    channel: CHANNEL,
    listen: cache !== undefined,
    onNotice: (members) => cache?.invalidate(members),
    onListening: () => cache?.resume(),
    onLost: (error) => {
      app.log.warn({ err: error }, 'not listening for commits elsewhere; public answers are not kept meanwhile');
      cache?.suspend();
    },
  });
  if (notices) {
    cache?.suspend();
    app.addHook('onClose', async () => notices.close());
    app.addHook('onListen', async () => {
      await notices.notifyNow().catch((error: unknown) => {
        app.log.warn({ err: error }, 'could not announce this instance to the others');
      });
    });
  }
  watchCommits(dataSource, {
    ignoredTables: PRIVATE_TABLES,
    memberTables: MEMBER_TABLES,
    announce: notices?.notify,
    onChange: (members) => cache?.invalidate(members),
    // The write is committed; the other instances must still hear of it.
    onAnnounceFailed: () => {
      void notices?.notifyNow().catch((error: unknown) => {
        app.log.warn(
          { err: error },
          'a committed change could not be announced; other instances may show it a minute late',
        );
      });
    },
  });
  return cache && { cache, fields: CACHED_FIELDS };
}

/**
 * For a process that writes but serves no answers (the admin command, which runs the services with
 * no HTTP server): its commits are announced to the instances that keep answers, as every instance
 * announces its own (on SQLite the file's `data_version` tells them). Returns what closes it.
 */
export function announceCommits(dataSource: DataSource, log: FastifyBaseLogger): () => Promise<void> {
  const notices = commitNotices(dataSource, {
    channel: CHANNEL,
    listen: false,
    onNotice: () => undefined,
    onListening: () => undefined,
    onLost: () => undefined,
  });
  watchCommits(dataSource, {
    ignoredTables: PRIVATE_TABLES,
    memberTables: MEMBER_TABLES,
    announce: notices?.notify,
    onChange: () => undefined,
    onAnnounceFailed: () => {
      void notices?.notifyNow().catch((error: unknown) => {
        log.warn({ err: error }, 'a committed change could not be announced; instances may show it a minute late');
      });
    },
  });
  return async () => {
    await notices?.close();
  };
}
