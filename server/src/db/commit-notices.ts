import type pg from 'pg';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * A notice's payload names the members whose rows changed, after this prefix, separated by spaces;
 * an empty payload (the admin command's, an instance's at start, a change to anything) empties
 * every cache. PostgreSQL refuses payloads past 8000 bytes: longer lists are sent as a change to
 * anything.
 */
const MEMBERS_PREFIX = 'members ';
const MAX_PAYLOAD = 7000;
/** What a uid may be to travel in a payload unquoted (they are UUIDs). */
const PLAIN_UID = /^[\w-]+$/;

/** The payload of a notice of a change to `members`' rows ('' for a change to anything). */
export function noticePayload(members: ReadonlySet<string> | undefined): string {
  if (members === undefined || members.size === 0) return '';
  const uids = [...members];
  if (!uids.every((uid) => PLAIN_UID.test(uid))) return '';
  const payload = `${MEMBERS_PREFIX}${uids.join(' ')}`;
  return payload.length > MAX_PAYLOAD ? '' : payload;
}

/** The members a notice's payload names, or undefined for a change to anything. */
export function noticeMembers(payload: string | undefined): ReadonlySet<string> | undefined {
  if (!payload?.startsWith(MEMBERS_PREFIX)) return undefined;
  const uids = payload.slice(MEMBERS_PREFIX.length).split(' ');
  return uids.every((uid) => PLAIN_UID.test(uid)) ? new Set(uids) : undefined;
}

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_MS = 1000;
/** How often the listening connection is checked, and how long its answer may take. */
const HEARTBEAT_MS = 15_000;
const HEARTBEAT_TIMEOUT_MS = 5000;

export interface CommitNoticeOptions {
  /** The PostgreSQL channel the notices go through. */
  channel: string;
  /** Whether to listen: a process that only writes (a cache turned off) just announces. */
  listen: boolean;
  /**
   * A notice arrived: some session committed a change, to the rows of the members named (see
   * `notify`), or to anything when undefined.
   */
  onNotice: (members?: ReadonlySet<string>) => void;
  /** Listening (again): notices sent from now on arrive; any sent while not listening were missed. */
  onListening: () => void;
  /** The listening connection is gone: notices are missed until `onListening`. */
  onLost: (error: unknown) => void;
}

export interface CommitNotices {
  /**
   * Sends the notice with `run` (on the writing connection: inside its transaction, if any): of a
   * change to `members`' rows alone, or to anything when undefined.
   */
  notify: (run: (sql: string) => Promise<unknown>, members?: ReadonlySet<string>) => Promise<void>;
  /** Sends the notice on a connection of the pool, outside any transaction. */
  notifyNow: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Notices of commits between processes sharing one PostgreSQL database (instances, the admin
 * command): `notify` runs `NOTIFY` on the connection that writes, which PostgreSQL delivers only
 * if and when its transaction commits; with `listen`, a connection of its own listens, is checked
 * every 15 s, and connects again when it is lost. Undefined for other databases.
 */
export function commitNotices(dataSource: DataSource, options: CommitNoticeOptions): CommitNotices | undefined {
  if (dataSource.options.type !== 'postgres') return undefined;
  // The pool's options and the pg library as TypeORM's driver loaded them (pg stays unloaded on SQLite).
  const { master: pool, postgres } = dataSource.driver as unknown as {
    master: Pool & { options: pg.ClientConfig };
    postgres: typeof pg;
  };
  const notice = `NOTIFY "${options.channel}"`;
  let client: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;

  const drop = (listener: pg.Client): void => {
    listener.removeAllListeners();
    listener.on('error', () => undefined);
    void listener.end().catch(() => undefined);
  };
  const lost = (listener: pg.Client, error: unknown): void => {
    // A late failure of a connection already replaced says nothing about the current one.
    if (closed || client !== listener) return;
    client = undefined;
    clearInterval(heartbeat);
    drop(listener);
    options.onLost(error);
    reconnect = setTimeout(connect, RECONNECT_MS);
    reconnect.unref();
  };
  const check = (listener: pg.Client): void => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        reject(new Error('the listening connection did not answer'));
      }, HEARTBEAT_TIMEOUT_MS);
    });
    Promise.race([listener.query('SELECT 1'), late])
      .catch((error: unknown) => {
        lost(listener, error);
      })
      .finally(() => {
        clearTimeout(timer);
      });
  };
  const connect = (): void => {
    if (closed) return;
    // TCP keep-alive too: a connection gone without a word (a dropped route) is noticed.
    const listener = new postgres.Client({ ...pool.options, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client = listener;
    listener.on('notification', (message) => {
      options.onNotice(noticeMembers(message.payload));
    });
    listener.on('error', (error) => {
      lost(listener, error);
    });
    listener.on('end', () => {
      lost(listener, new Error('the listening connection ended'));
    });
    listener
      .connect()
      .then(() => listener.query(`LISTEN "${options.channel}"`))
      .then(() => {
        if (client !== listener) return;
        heartbeat = setInterval(() => {
          check(listener);
        }, HEARTBEAT_MS);
        heartbeat.unref();
        options.onListening();
      })
      .catch((error: unknown) => {
        lost(listener, error);
      });
  };
  if (options.listen) connect();

  return {
    notify: async (run, members) => {
      const payload = noticePayload(members);
      await run(payload === '' ? notice : `${notice}, '${payload}'`);
    },
    notifyNow: async () => {
      await pool.query(notice);
    },
    close: async () => {
      closed = true;
      clearTimeout(reconnect);
      clearInterval(heartbeat);
      const listener = client;
      client = undefined;
      if (!listener) return;
      listener.removeAllListeners();
      listener.on('error', () => undefined);
      await listener.end().catch(() => undefined);
    },
  };
}
