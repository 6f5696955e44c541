import type DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import type { Loaders } from '../graphql/context.js';
import type { LinkRecord } from '../links/link.entity.js';
import { linkLoaderFactory } from '../links/link.loaders.js';
import type { UserRecord } from '../members/user.entity.js';
import { userLoaderFactory } from '../members/user.loaders.js';
import { photoLoaderFactory } from '../photos/photo.loaders.js';
import type { ProfileLoaders } from '../profiles/profile.loaders.js';
import { profileLoadersFactory } from '../profiles/profile.loaders.js';

/**
 * The registry of per-request DataLoaders. Every feature's readers are built once here, per data
 * source; a request's loaders are made when a resolver first asks for them, so that a request
 * which reads only a profile makes no link or photo loader (requests are the hot path: a public
 * profile read made all six, and looked up their entity metadata, before this).
 */
export function loadersFor(dataSource: DataSource): () => Loaders {
  const factories = {
    user: userLoaderFactory(dataSource),
    profiles: profileLoadersFactory(dataSource),
    links: linkLoaderFactory(dataSource),
    photo: photoLoaderFactory(dataSource),
  };
  return () => new RequestLoaders(factories);
}

interface Factories {
  user: () => DataLoader<string, UserRecord | null>;
  profiles: (users: { readonly userByUid: DataLoader<string, UserRecord | null> }) => ProfileLoaders;
  links: () => DataLoader<string, LinkRecord[]>;
  photo: () => DataLoader<string, string | null>;
}

/**
 * One request's loaders, each made on first use. Every member whose rows they read is noted in
 * `membersRead` (each loader is keyed by uid, and a profile read by username names its uid), so
 * that a kept answer is dropped when one of those members changes (app/public-answers.ts); a
 * username nobody has names no member, and such an answer goes only when the cache is emptied.
 */
class RequestLoaders implements Loaders {
  readonly membersRead = new Set<string>();
  #userByUid?: DataLoader<string, UserRecord | null>;
  #profiles?: ProfileLoaders;
  #linksByUid?: DataLoader<string, LinkRecord[]>;
  #photoVersionByUid?: DataLoader<string, string | null>;

  constructor(private readonly factories: Factories) {}

  get userByUid(): DataLoader<string, UserRecord | null> {
    return (this.#userByUid ??= this.notingKeys(this.factories.user()));
  }

  get profileByUid(): ProfileLoaders['profileByUid'] {
    return this.profiles().profileByUid;
  }

  get profileByUsername(): ProfileLoaders['profileByUsername'] {
    return this.profiles().profileByUsername;
  }

  get linksByUid(): DataLoader<string, LinkRecord[]> {
    return (this.#linksByUid ??= this.notingKeys(this.factories.links()));
  }

  get photoVersionByUid(): DataLoader<string, string | null> {
    return (this.#photoVersionByUid ??= this.notingKeys(this.factories.photo()));
  }

  private profiles(): ProfileLoaders {
    if (this.#profiles) return this.#profiles;
    const profiles = this.factories.profiles(this);
    this.notingKeys(profiles.profileByUid);
    const byUsername = profiles.profileByUsername;
    const load = byUsername.load.bind(byUsername);
    // loadMany goes through load too.
    byUsername.load = async (username) => {
      const record = await load(username);
      if (record) this.membersRead.add(record.uid);
      return record;
    };
    return (this.#profiles = profiles);
  }

  /** Makes `loader` note each uid asked of it (loadMany goes through load). */
  private notingKeys<V>(loader: DataLoader<string, V>): DataLoader<string, V> {
    const load = loader.load.bind(loader);
    loader.load = (uid) => {
      this.membersRead.add(uid);
      return load(uid);
    };
    return loader;
  }
}
