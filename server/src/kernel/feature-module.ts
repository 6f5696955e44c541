import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import type { AuthUser, Loaders } from '../graphql/context.js';
import type { ScheduledJob } from '../jobs/schedule.js';
import type { Mailer } from '../mail/mail.transport.js';
import type { Metrics } from '../observability/metrics.js';
import type { HeavyLane } from '../work/capacity.js';
import type { WorkerPool } from '../work/worker-pool.js';
import type { Live } from './live.js';

/**
 * Every feature's services, by name. Each feature adds its own by module augmentation in its
 * `*.module.ts`, as features add their loaders to `Loaders`: so this kernel names no feature.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features' augmentations
export interface Services {}

/** What tests may hand a feature instead of the real thing; each feature adds its own by augmentation. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features' augmentations
export interface FeatureOptions {}

/** What every feature builds on: the shared layers, made once by the composition root. */
export interface Kernel {
  config: Config;
  dataSource: DataSource;
  log: FastifyBaseLogger;
  metrics: Metrics;
  /** One SMTP transport for all mail: the embedded identity service's and the morning verse. */
  mailer: Mailer;
  /** The bound on the cores heavy work takes, a lane per kind, and the threads that do it (work/capacity.ts). */
  heavy: { uploads: HeavyLane; renders: HeavyLane; pool: WorkerPool };
  /** Events pushed to subscribers (kernel/live.ts): in process, or across instances through Redis. */
  live: Live;
  /** A new request's loaders. */
  loaders: () => Loaders;
  /** The caller an Authorization header names (null without one); throws UNAUTHENTICATED for a bad token. */
  authenticate: (header: string | undefined) => Promise<AuthUser | null>;
  options: FeatureOptions;
  /** False for commands that run the services briefly: no background work. */
  background: boolean;
  /** Runs `close` when the services are closed, the last added first. */
  onClose: (close: () => unknown) => void;
}

/** A resolver class and how its one instance is made from the services. */
export interface ResolverRecipe {
  type: abstract new (...args: never[]) => object;
  build(services: Services, kernel: Kernel): object;
}

/** A resolver recipe, with its instance checked against its class. */
export function resolver<T extends object>(
  type: abstract new (...args: never[]) => T,
  build: (services: Services, kernel: Kernel) => T,
): ResolverRecipe {
  return { type, build };
}

/** Loaders made together on a request's first use of any of them (they prime one another). */
export interface LoaderGroup {
  names: readonly (keyof Loaders)[];
  make(request: Loaders): Partial<Loaders>;
  /**
   * Which member each loader reads, noted in the request's `membersRead` so that a kept answer is
   * dropped when that member changes: `key` for a loader keyed by the member's uid, `found` for one
   * whose record carries the `uid` (a profile by username). A loader named here that reads members
   * but is left out keeps its answers until the whole cache is emptied.
   */
  members?: Partial<Record<keyof Loaders, 'key' | 'found'>>;
}

/**
 * One server feature as the composition root sees it (`app/modules.ts` lists them in the order
 * they are built: a feature after the features it uses).
 */
export interface FeatureModule {
  name: string;
  /** Its tables (TypeORM entity classes). */
  entities?: readonly (new () => unknown)[];
  /** Its services, from the kernel and the services of the features listed before it. No HTTP. */
  build?(kernel: Kernel, services: Services): Partial<Services> | Promise<Partial<Services>>;
  resolvers?: readonly ResolverRecipe[];
  /** Its loaders' readers, made once per data source; the loaders themselves are made per request. */
  loaders?(dataSource: DataSource): LoaderGroup[];
  /** Its HTTP routes besides GraphQL, on the server that listens. */
  routes?(server: FastifyInstance, services: Services, kernel: Kernel): void | Promise<void>;
  /** Its background jobs, run by the server that listens (kernel.background), across every instance. */
  jobs?(services: Services, kernel: Kernel): ScheduledJob[];
}
