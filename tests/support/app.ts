import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import { buildApp } from '../../server/src/app/app.js';
import type { AppDependencies } from '../../server/src/app/app.js';
import type { Config, Env } from '../../server/src/config.js';
import { loadConfig } from '../../server/src/config.js';
import { createDataSource } from '../../server/src/app/data-source.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import { createTestDatabase } from './database.js';
import type { TestDatabase } from './database.js';

export interface GraphQLResponse<TData = Record<string, unknown>> {
  status: number;
  data?: TData | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
}

export interface TestApp {
  /** The origin the app listens on, e.g. http://127.0.0.1:41234. */
  url: string;
  app: FastifyInstance;
  config: Config;
  /** The app's own data source, for arranging and checking records directly. */
  dataSource: DataSource;
  /** Sends one GraphQL operation over HTTP, as any client would. */
  graphql<TData = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    options?: { token?: string; headers?: Record<string, string> },
  ): Promise<GraphQLResponse<TData>>;
  close(): Promise<void>;
}

/** Sends GraphQL operations to the server at `url` over HTTP, as any client would. */
export function graphqlClient(url: string): TestApp['graphql'] {
  return async (query, variables, options = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as Omit<GraphQLResponse<never>, 'status'>;
    return { status: response.status, ...body };
  };
}

/** How many ports a test app tries before it gives up listening. */
const LISTEN_ATTEMPTS = 5;

/** A port that was free a moment ago (the app needs to know its own URL before it listens). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/**
 * Settings that start the app as in production (`NODE_ENV=production`), with what production
 * requires beyond the test defaults: a configured token-signing secret and an SMTP server (PUBLIC_URL
 * is always set).
 */
export function productionEnv(): Env {
  return {
    NODE_ENV: 'production',
    AUTH_JWT_SECRET: randomBytes(48).toString('base64'),
    AUTH_MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    // Production refuses the development outbox, and a loopback relay unless told it is deliberate;
    // nothing is mailed by the tests that use this.
    SMTP_URL: 'smtp://127.0.0.1:1',
    SMTP_ALLOW_LOCAL: 'true',
  };
}

/**
 * Builds the real app with `buildApp()` on a fresh database of the project's dialect and starts it
 * on a loopback port. `env` adds or overrides settings, as the environment would (`productionEnv()`
 * for production mode; the default is NODE_ENV=test), or a function of the port it will listen on. Pass `database` to start it on an existing
 * database (a "next start"); that database then outlives the app.
 */
export async function startTestApp(
  env: Env | ((port: number) => Env) = {},
  dependencies: AppDependencies = {},
  shared: { database?: TestDatabase } = {},
): Promise<TestApp> {
  const database = shared.database ?? (await createTestDatabase());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lampstand-data-'));
  const settings = (port: number) =>
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      RECONCILE_ON_START: 'false',
      ...database.env,
      ...(typeof env === 'function' ? env(port) : env),
    });
  let config = settings(await freePort());
  const dataSource = dependencies.dataSource ?? (await openDatabase(createDataSource(config.database)));
  // The app must know its address before it listens, and a port free a moment ago can be taken
  // meanwhile by another process's connection: then it starts again on another port.
  let app: FastifyInstance;
  for (let attempt = 1; ; attempt++) {
    app = await buildApp(config, { ...dependencies, dataSource });
    try {
      await app.listen({ host: config.host, port: config.port });
      break;
    } catch (error) {
      await app.close();
      const taken = error instanceof Error && 'code' in error && error.code === 'EADDRINUSE';
      if (!taken || attempt >= LISTEN_ATTEMPTS) throw error;
      config = settings(await freePort());
    }
  }
  const url = `http://127.0.0.1:${config.port}`;

  return {
    url,
    app,
    config,
    dataSource,
    graphql: graphqlClient(url),
    async close() {
      await app.close();
      if (!dependencies.dataSource && dataSource.isInitialized) await dataSource.destroy();
      if (!shared.database) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
