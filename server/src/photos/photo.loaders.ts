import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { keyLookup } from '../db/key-lookup.js';
import { PhotoRecord } from './photo.entity.js';

/** Each member's photo version (null without one), one query per request, made per request; never the image. */
export function photoLoaderFactory(dataSource: DataSource): () => DataLoader<string, string | null> {
  const versions = keyLookup(dataSource, PhotoRecord, 'uid', ['uid', 'version']);
  return () =>
    new DataLoader(async (uids: readonly string[]) => {
      const rows = await versions(uids);
      const byUid = new Map(rows.map((row) => [row.uid, row.version]));
      return uids.map((uid) => byUid.get(uid) ?? null);
    });
}

declare module '../graphql/context.js' {
  interface Loaders {
    /** Each member's photo version, or null when they have none. */
    photoVersionByUid: DataLoader<string, string | null>;
  }
}
