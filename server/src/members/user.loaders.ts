import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { keyLookup } from '../db/key-lookup.js';
import { UserRecord } from './user.entity.js';

/** Batches user-record reads of one request into one query: the reader is built once, a loader per request. */
export function userLoaderFactory(dataSource: DataSource): () => DataLoader<string, UserRecord | null> {
  const byUids = keyLookup(dataSource, UserRecord, 'uid');
  return () =>
    new DataLoader(async (uids: readonly string[]) => {
      const rows = await byUids(uids);
      const byUid = new Map(rows.map((row) => [row.uid, row]));
      return uids.map((uid) => byUid.get(uid) ?? null);
    });
}

declare module '../graphql/context.js' {
  interface Loaders {
    userByUid: DataLoader<string, UserRecord | null>;
  }
}
