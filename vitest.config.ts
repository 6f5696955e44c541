import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { passwordDictionaries, sharedRules } from './web/vite.config';

const require = createRequire(import.meta.url);

/** Server tests run twice: once on SQLite, once on PostgreSQL (see tests/support/database-setup.ts). */
const serverTests = ['tests/server/**/*.test.ts', 'tests/contract/**/*.test.ts'];
/** Server tests of PostgreSQL's own behaviour: they run in the PostgreSQL project only, never skipped. */
const postgresOnlyTests = ['tests/server/database-outage.test.ts'];
/** Server tests of SQLite's own behaviour: they run in the SQLite project only, never skipped. */
const sqliteOnlyTests = [
  'tests/server/sqlite-outage.test.ts',
  'tests/server/sqlite-immutable.test.ts',
  'tests/server/sqlite-disk-full.test.ts',
  'tests/server/sqlite-transaction-recovery.test.ts',
];

/**
 * Timeouts catch a test that hangs; they do not judge speed. They are sized for a busy machine (two
 * cores shared with other work run the slowest files ten times slower than a quiet one), once per
 * project, so that load alone never fails a test and no test needs a guess of its own. The same
 * goes for `expect.poll`, which waits for something to happen (a second by default).
 */
const TIMEOUTS = {
  /** In-process tests: a component rendered, a function called. */
  inProcess: { testTimeout: 60_000, hookTimeout: 120_000 },
  /** Servers, databases, child processes and CLIs started and driven over HTTP. */
  servers: { testTimeout: 240_000, hookTimeout: 300_000, expect: { poll: { timeout: 60_000 } } },
  /** A browser driving the built app, on top of the servers (see also tests/support/browser.ts). */
  browser: { testTimeout: 240_000, hookTimeout: 600_000, expect: { poll: { timeout: 60_000 } } },
} as const;

export default defineConfig({
  plugins: [passwordDictionaries()],
  resolve: {
    // graphql 16 has no `exports` map: Node loads its CommonJS build for Apollo and type-graphql, so
    // the tests must load that same copy, or `instanceof GraphQLError` fails between two copies.
    alias: [{ find: 'graphql', replacement: require.resolve('graphql') }, sharedRules],
  },
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', ...TIMEOUTS.inProcess },
      },
      {
        // Components in a simulated DOM; the browser tests (e2e) cover the real thing.
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          ...TIMEOUTS.inProcess,
          setupFiles: ['tests/support/web-setup.ts'],
          // Scripts the app adds (the tag manager) are never fetched or run here.
          environmentOptions: {
            happyDOM: { settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true } },
          },
        },
      },
      {
        test: {
          name: 'server:sqlite',
          ...TIMEOUTS.servers,
          include: serverTests,
          exclude: postgresOnlyTests,
          environment: 'node',
          globalSetup: ['tests/support/database-setup.ts'],
          provide: { dialect: 'sqlite' },
        },
      },
      {
        test: {
          name: 'server:postgres',
          ...TIMEOUTS.servers,
          include: serverTests,
          exclude: sqliteOnlyTests,
          environment: 'node',
          globalSetup: ['tests/support/database-setup.ts'],
          provide: { dialect: 'postgres' },
        },
      },
      {
        // L5: several instances on one PostgreSQL and one Redis (both required).
        test: {
          name: 'scale',
          ...TIMEOUTS.servers,
          include: ['tests/scale/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/database-setup.ts'],
          provide: { dialect: 'postgres' },
        },
      },
      {
        // `npm run bench -- --quick`, so that the harness keeps working (no timing is asserted).
        // It runs after every other project: its load would slow the others and take their ports.
        test: {
          name: 'bench',
          include: ['tests/bench/**/*.test.ts'],
          environment: 'node',
          // The quick run takes minutes on its own (over 280 s on a busy machine); the test bounds it.
          testTimeout: 900_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/database-setup.ts', 'tests/support/web-build-setup.ts'],
          provide: { dialect: 'sqlite' },
          fileParallelism: false,
          ...TIMEOUTS.browser,
        },
      },
    ],
  },
});
