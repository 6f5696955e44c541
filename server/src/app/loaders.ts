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
        get(this: Loaders): unknown {
          const made = group.make(this);
          for (const each of group.names) {
            if (made[each] === undefined) throw new Error(`a loader group did not make its "${each}"`);
            Object.defineProperty(this, each, { value: made[each], enumerable: true });
          }
          return made[name];
        },
      });
    }
  }
  return () => Object.create(prototype) as Loaders;
}
