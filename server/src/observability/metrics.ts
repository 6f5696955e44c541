import { createServer } from '../http/node-http.js';
import type { Server } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import type { GraphQLFormattedError } from 'graphql';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { BuildInfo } from './build-info.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Seconds; from a cached profile read (~1 ms) to an identity call near its deadline. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** What a pg pool tells about itself (TypeORM's PostgreSQL driver keeps one as `master`). */
interface PoolState {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

function poolOf(dataSource: DataSource): PoolState | undefined {
  const driver = dataSource.driver as unknown as { master?: Partial<PoolState> };
  const pool = driver.master;
  return typeof pool?.totalCount === 'number' ? (pool as PoolState) : undefined;
}

/**
 * The server's Prometheus metrics, one registry per app: requests (rate and latency by route and
 * status), GraphQL errors by code, identity calls, the database pool and background jobs. Served
 * only on METRICS_PORT, never on the public port.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'lampstand_http_request_duration_seconds',
    help: 'HTTP requests by method, route and status, with their latency',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly graphqlErrors = new Counter({
    name: 'lampstand_graphql_errors_total',
    help: 'GraphQL errors answered, by code',
    labelNames: ['code'],
    registers: [this.registry],
  });
  /** Operations the lean executor answered (graphql/public-executor.ts); Apollo answers the rest. */
  readonly leanAnswers = new Counter({
    name: 'lampstand_graphql_lean_answers_total',
    help: 'GraphQL queries and public mutations answered by the lean executor instead of Apollo',
    registers: [this.registry],
  });
  readonly cachedAnswers = new Counter({
    name: 'lampstand_graphql_cached_answers_total',
    help: 'Anonymous public queries answered from the answer cache (also counted as lean answers), and /@username pages sent from their kept rendering',
    registers: [this.registry],
  });
  private readonly identityCalls = new Histogram({
    name: 'lampstand_identity_call_duration_seconds',
    help: 'Calls to the identity service, by method and outcome',
    labelNames: ['method', 'outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobRuns = new Counter({
    name: 'lampstand_job_runs_total',
    help: 'Background job runs on this instance, by job and result',
    labelNames: ['job', 'result'],
    registers: [this.registry],
  });

  constructor(dataSource: DataSource, build: BuildInfo) {
    collectDefaultMetrics({ register: this.registry });
    // Prometheus's info-metric convention: always 1, the release in its labels.
    new Gauge({
      name: 'lampstand_build_info',
      help: 'The running release: version (package.json), git commit (or unknown) and Node version',
      labelNames: ['version', 'commit', 'node'],
      registers: [this.registry],
    }).set({ version: build.version, commit: build.commit ?? 'unknown', node: build.node }, 1);
    new Gauge({
      name: 'lampstand_db_pool_connections',
      help: 'PostgreSQL pool connections by state (none on SQLite)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const pool = poolOf(dataSource);
        if (!pool) return;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  /**
   * Image and card work running and waiting for a place (`work/capacity.ts`): a lane that stays full
   * is what answers 503 with `Retry-After`.
   */
  observeHeavyWork(load: () => { running: number; waiting: number }): void {
    new Gauge({
      name: 'lampstand_heavy_tasks',
      help: 'Image and card tasks running and waiting for a place (past the queue limit they are put off with 503)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const { running, waiting } = load();
        this.set({ state: 'running' }, running);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }

  /** Requests received whose response has not closed: a plain count, which the gauge reads when scraped. */
  private requestsInFlight = 0;
  /** One listener for every response's `close` (Node emits it once per response), not a closure each. */
  private readonly requestClosed = (): void => {
    this.requestsInFlight--;
  };
  private readonly inFlight = new Gauge({
    name: 'lampstand_http_requests_in_flight',
    help: 'HTTP requests received and not yet answered (what a shutdown waits for)',
    registers: [this.registry],
    collect: () => {
      this.inFlight.set(this.requestsInFlight);
    },
  });

  /**
   * Records every answered request under its route pattern (never the raw path, which holds
   * names), and counts the requests in flight until their response ends or their connection drops
   * (a number and a shared listener: the gauge's own inc and dec, and a closure per request, were
   * most of this hook's cost).
   */
  observeRequests(app: FastifyInstance): void {
    app.addHook('onRequest', (_request, reply, done) => {
      this.requestsInFlight++;
      reply.raw.on('close', this.requestClosed);
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      this.requests.observe(
        { method: request.method, route: request.routeOptions.url ?? 'not-found', status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }

  /** Counts the errors of one GraphQL answer by their code. */
  countGraphqlErrors(errors: readonly GraphQLFormattedError[]): void {
    for (const error of errors) {
      const code = error.extensions?.code;
      this.graphqlErrors.inc({ code: typeof code === 'string' ? code : 'UNKNOWN' });
    }
  }

  /** An Apollo plugin that counts the errors of every answer by their code. */
  graphqlPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
    return {
      requestDidStart: () =>
        Promise.resolve({
          willSendResponse: ({ response }) => {
            const body = response.body.kind === 'single' ? response.body.singleResult : undefined;
            this.countGraphqlErrors(body?.errors ?? []);
            return Promise.resolve();
          },
        }),
    };
  }

  /** `fetch` for identity calls, timed. */
  timedFetch(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      const end = this.identityCalls.startTimer({ method: init?.method ?? 'GET' });
      try {
        const response = await inner(input, init);
        end({ outcome: String(response.status) });
        return response;
      } catch (error) {
        end({ outcome: 'failed' });
        throw error;
      }
    };
  }

  jobRun(job: string, result: 'ok' | 'failed'): void {
    this.jobRuns.inc({ job, result });
  }

  /** Serves `/metrics` on its own port once the app listens; closed with the app. */
  serve(app: FastifyInstance, host: string, port: number): void {
    let server: Server | undefined;
    app.addHook('onListen', async () => {
      server = createServer((request, response) => {
        if (request.url !== '/metrics') {
          response.writeHead(404).end();
          return;
        }
        this.registry
          .metrics()
          .then((text) => response.writeHead(200, { 'content-type': this.registry.contentType }).end(text))
          .catch((error: unknown) => {
            app.log.error({ err: error }, 'metrics could not be collected');
            response.writeHead(500).end();
          });
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, host, resolve);
      });
      app.log.info({ port }, 'metrics served on their own port');
    });
    app.addHook('onClose', async () => {
      const listening = server;
      if (listening) await new Promise((resolve) => listening.close(resolve));
    });
  }
}
