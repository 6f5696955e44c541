import type { DataSource } from 'typeorm';
import type { Loaders } from '../graphql/context.js';
import { createLinkLoader } from '../links/link.loaders.js';
import { createUserLoader } from '../members/user.loaders.js';
import { createPhotoLoader } from '../photos/photo.loaders.js';
import { createProfileLoaders } from '../profiles/profile.loaders.js';

/** The registry of per-request DataLoaders: every feature's factory, called once per request. */
export function createLoaders(dataSource: DataSource): Loaders {
  const userByUid = createUserLoader(dataSource);
  return {
    ...createProfileLoaders(dataSource, { userByUid }),
    userByUid,
    linksByUid: createLinkLoader(dataSource),
    photoVersionByUid: createPhotoLoader(dataSource),
  };
}
