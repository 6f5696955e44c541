import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Config } from '../config.js';
import { openDatabase, useRequestBusyTimeout } from '../db/data-source.js';
import { sqliteWritableCheck } from '../db/sqlite-guard.js';
import type { FeatureOptions, Kernel, Services } from '../kernel/feature-module.js';
import { inProcessLive } from '../kernel/live.js';
import { redisLive } from '../kernel/redis-live.js';
import { createMailer } from '../mail/mail.transport.js';
import { readBuildInfo } from '../observability/build-info.js';
import type { BuildInfo } from '../observability/build-info.js';
import { Metrics } from '../observability/metrics.js';
import { defaultHeavySlots, HeavyCapacity } from '../work/capacity.js';
import { WorkerPool } from '../work/worker-pool.js';
import type { AppDependencies } from './app-dependencies.js';
import { authenticate } from './context.js';
import { createDataSource } from './data-source.js';
import { loadersFor } from './loaders.js';
import { modules } from './modules.js';

/** Every feature's services on their kernel, with no HTTP server: what the server and the CLI run on. */
export interface AppServices {
  kernel: Kernel;
  services: Services;
  build: BuildInfo;
  /** Closes everything the services opened, the last opened first. */
  close(): Promise<void>;
}

/** The services of the features listed before, which fails loudly when a feature asks for a later one's. */
function builtSoFar(services: Partial<Services>, building: string): Services {
  return new Proxy(services, {
    get(target, key) {
      if (typeof key === 'string' && !(key in target)) {
        throw new Error(`${building} uses "${key}", which no feature listed before it in app/modules.ts builds`);
      }
      return Reflect.get(target, key) as unknown;
    },
  }) as Services;
}

/**
 * Builds the database, the shared layers and every feature's services, in the order of
 * app/modules.ts, without an HTTP server (buildApp puts one in front; the CLI uses them as they are).
 */
export async function buildServices(config: Config, dependencies: AppDependencies = {}): Promise<AppServices> {
  const closers: (() => unknown)[] = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  const onClose = (closer: () => unknown): void => {
    closers.push(closer);
  };
  // Asynchronous writes to stdout (lines written while one write is pending go out together;
  // flushed at exit): the default synchronous destination made a write call per request, the
  // largest single cost of a profile read when profiled.
  const log: FastifyBaseLogger = pino(
    { level: config.logLevel },
    dependencies.logStream ?? pino.destination({ dest: 1, sync: false }),
  );
  try {
    const dataSource = dependencies.dataSource ?? (await openDatabase(createDataSource(config.database)));
    if (!dependencies.dataSource) onClose(() => dataSource.destroy());
    // Migrations ran with the long wait; requests must not freeze the process that long (F1).
    await useRequestBusyTimeout(dataSource);
    try {
      sqliteWritableCheck(dataSource)?.();
    } catch (error) {
      log.error(
        { err: error },
        'the SQLite database cannot be written: writes fail and /readyz answers 503 until it can',
      );
    }
    const mailer = createMailer(config, dataSource, log);
    onClose(() => {
      mailer.close();
    });
    // One bound on the cores heavy work takes, with a lane per kind (members' uploads; cards and QR
    // codes for anyone), so that a card flood never puts off an upload: see work/capacity.ts.
    const heavySlots = config.heavy.threads ?? defaultHeavySlots();
    const capacity = new HeavyCapacity(heavySlots, config.heavy.queue);
    const [uploads, renders] = [capacity.lane(), capacity.lane()];
    const pool = new WorkerPool(heavySlots);
    onClose(() => pool.close());
    // Across instances through Redis when the deployment has one; in this process otherwise.
    const live = config.redisUrl === undefined ? inProcessLive() : await redisLive(config.redisUrl, log);
    onClose(() => live.close());
    const build = readBuildInfo();
    const metrics = new Metrics(dataSource, build);
    metrics.observeHeavyWork(() => capacity.load);
    const services: Partial<Services> = {};
    const options: FeatureOptions = dependencies;
    const kernel: Kernel = {
      config,
      dataSource,
      log,
      metrics,
      mailer,
      heavy: { uploads, renders, pool },
      live,
      loaders: loadersFor(dataSource),
      authenticate: (header) => authenticate(header, (services as Services).identity.verifier),
      options,
      background: dependencies.background ?? true,
      onClose,
    };
    for (const module of modules) {
      Object.assign(services, await module.build?.(kernel, builtSoFar(services, module.name)));
    }
    return { kernel, services: services as Services, build, close };
  } catch (error) {
    await close();
    throw error;
  }
}
