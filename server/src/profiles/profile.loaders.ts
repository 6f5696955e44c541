import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { keyLookup } from '../db/key-lookup.js';
import { ProfileRecord } from './profile.entity.js';

export interface ProfileLoaders {
  profileByUid: DataLoader<string, ProfileRecord | null>;
  /** Keys are usernames already lowered. */
  profileByUsername: DataLoader<string, ProfileRecord | null>;
}

/** Batches profile reads of one request into one query per key kind, and primes one from the other. */
export function createProfileLoaders(dataSource: DataSource): ProfileLoaders {
  const byUids = keyLookup(dataSource, ProfileRecord, 'uid');
  const byUsernames = keyLookup(dataSource, ProfileRecord, 'username');
  const loaders: ProfileLoaders = {
    profileByUid: new DataLoader(async (uids: readonly string[]) => {
      const rows = await byUids(uids);
      for (const row of rows) loaders.profileByUsername.prime(row.username, row);
      const byUid = new Map(rows.map((row) => [row.uid, row]));
      return uids.map((uid) => byUid.get(uid) ?? null);
    }),
    profileByUsername: new DataLoader(async (usernames: readonly string[]) => {
      const rows = await byUsernames(usernames);
      for (const row of rows) loaders.profileByUid.prime(row.uid, row);
      const byUsername = new Map(rows.map((row) => [row.username, row]));
      return usernames.map((username) => byUsername.get(username) ?? null);
    }),
  };
  return loaders;
}

declare module '../graphql/context.js' {
  interface Loaders {
    profileByUid: ProfileLoaders['profileByUid'];
    profileByUsername: ProfileLoaders['profileByUsername'];
  }
}
