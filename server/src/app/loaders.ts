import type { DataSource } from 'typeorm';
import type { Loaders } from '../graphql/context.js';
import { modules } from './modules.js';

/**
 * The registry of per-request DataLoaders. Every feature's readers (its module's `loaders`) are
 * built once here, per data source; a request's loaders are made when a resolver first asks for
 * them, so that a request which reads only a profile makes no link or photo loader (requests are
 * the hot path: a public profile read made all six, and looked up their entity metadata, before
 * this). Each name is a getter on one shared prototype that makes its group on first use and
 * leaves the loaders on the request's own object, so later reads are plain property reads.
 */
export function loadersFor(dataSource: DataSource): () => Loaders {
  const prototype = {};
  for (const group of modules.flatMap((module) => module.loaders?.(dataSource) ?? [])) {
    for (const name of group.names) {
      Object.defineProperty(prototype, name, {
        get(this: RequestLoaders): unknown {
          const made = group.make(this);
          for (const each of group.names) {
            const loader = made[each];
            if (loader === undefined) throw new Error(`a loader group did not make its "${each}"`);
            const noting = group.members?.[each];
            if (noting) noteMembers(this.membersRead, loader as Loader, noting);
            Object.defineProperty(this, each, { value: loader, enumerable: true });
          }
          return made[name];
        },
      });
    }
  }
  return () => {
    const request = Object.create(prototype) as RequestLoaders;
    Object.defineProperty(request, 'membersRead', { value: new Set<string>(), enumerable: true });
    return request;
  };
}

/**
 * A request's loaders note every member whose rows they read (`membersRead`), so that a kept answer
 * is dropped when one of those members changes (app/public-answers.ts).
 */
interface RequestLoaders extends Loaders {
  readonly membersRead: Set<string>;
}
interface Loader {
  load(key: unknown): Promise<unknown>;
}

/** Makes `loader` note the member of each read (loadMany goes through load). */
function noteMembers(membersRead: Set<string>, loader: Loader, noting: 'key' | 'found'): void {
  const load = loader.load.bind(loader);
  loader.load =
    noting === 'key'
      ? (key) => {
          if (typeof key === 'string') membersRead.add(key);
          return load(key);
        }
      : async (key) => {
          const record = await load(key);
          const uid: unknown = typeof record === 'object' && record !== null ? Reflect.get(record, 'uid') : undefined;
          if (typeof uid === 'string') membersRead.add(uid);
          return record;
        };
}
