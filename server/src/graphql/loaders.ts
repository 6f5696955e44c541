import type DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import type { UserRecord } from '../accounts/user.entity.js';
import { createUserLoader } from '../accounts/user.loaders.js';
import type { LinkRecord } from '../links/link.entity.js';
import { createLinkLoader } from '../links/link.loaders.js';
import type { ProfileLoaders } from '../profiles/profile.loaders.js';
import { createProfileLoaders } from '../profiles/profile.loaders.js';

/** One request's DataLoaders: relations resolve in batches, never one query per row. */
export interface Loaders extends ProfileLoaders {
  userByUid: DataLoader<string, UserRecord | null>;
  /** Each page's links in order, hidden ones included. */
  linksByUid: DataLoader<string, LinkRecord[]>;
}

export function createLoaders(dataSource: DataSource): Loaders {
  return {
    ...createProfileLoaders(dataSource),
    userByUid: createUserLoader(dataSource),
    linksByUid: createLinkLoader(dataSource),
  };
}
