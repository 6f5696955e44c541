import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { joinedKeyLookup } from '../db/key-lookup.js';
import { UserRecord } from '../members/user.entity.js';
import { ProfileRecord } from './profile.entity.js';

export interface ProfileLoaders {
  profileByUid: DataLoader<string, ProfileRecord | null>;
  /** Keys are usernames already lowered. */
  profileByUsername: DataLoader<string, ProfileRecord | null>;
}

/**
 * Batches profile reads of one request into one query per key kind, and primes one from the other.
 * A profile read by either key brings its owner's user record in the same statement (a public page
 * and `me` need both), priming `userByUid`. The readers are built once; the loaders, per request.
 */
export function profileLoadersFactory(
  dataSource: DataSource,
): (users: { readonly userByUid: DataLoader<string, UserRecord | null> }) => ProfileLoaders {
  const withOwner = { entity: UserRecord, on: ['uid', 'uid'] as ['uid', 'uid'] };
  const byUids = joinedKeyLookup(dataSource, ProfileRecord, 'uid', withOwner);
  const byUsernames = joinedKeyLookup(dataSource, ProfileRecord, 'username', withOwner);
  return (users) => {
    const loaders: ProfileLoaders = {
      profileByUid: new DataLoader(async (uids: readonly string[]) => {
        const rows = await byUids(uids);
        for (const [row, owner] of rows) {
          loaders.profileByUsername.prime(row.username, row);
          users.userByUid.prime(row.uid, owner);
        }
        const byUid = new Map(rows.map(([row]) => [row.uid, row]));
        return uids.map((uid) => byUid.get(uid) ?? null);
      }),
      profileByUsername: new DataLoader(async (usernames: readonly string[]) => {
        const rows = await byUsernames(usernames);
        for (const [row, owner] of rows) {
          loaders.profileByUid.prime(row.uid, row);
          users.userByUid.prime(row.uid, owner);
        }
        const byUsername = new Map(rows.map(([row]) => [row.username, row]));
        return usernames.map((username) => byUsername.get(username) ?? null);
      }),
    };
    return loaders;
  };
}

declare module '../graphql/context.js' {
  interface Loaders {
    profileByUid: ProfileLoaders['profileByUid'];
    profileByUsername: ProfileLoaders['profileByUsername'];
  }
}
