import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { LinkRecord } from './link.entity.js';

/** Each page's links in page order (hidden ones included), one query for every page of a request (a loader per request). */
export function linkLoaderFactory(dataSource: DataSource): () => DataLoader<string, LinkRecord[]> {
  const repository = dataSource.getRepository(LinkRecord);
  return () =>
    new DataLoader(async (uids: readonly string[]) => {
      const rows = await repository.find({ where: { uid: In([...uids]) }, order: { position: 'ASC' } });
      const byUid = new Map<string, LinkRecord[]>(uids.map((uid) => [uid, []]));
      for (const row of rows) byUid.get(row.uid)?.push(row);
      return uids.map((uid) => byUid.get(uid) ?? []);
    });
}

declare module '../graphql/context.js' {
  interface Loaders {
    /** Each page's links in order, hidden ones included. */
    linksByUid: DataLoader<string, LinkRecord[]>;
  }
}
