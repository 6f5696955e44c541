import type { Dialect } from '../../server/src/db/schema-diff.js';

/** What the global setups hand to the test files (vitest `provide` / `inject`). */
declare module 'vitest' {
  export interface ProvidedContext {
    dialect: Dialect;
    /** SQLite: a migrated database file that each test file copies. */
    sqliteTemplate: string;
    /** PostgreSQL: the admin connection and a migrated template database each test file clones. */
    postgresAdminUrl: string;
    postgresTemplate: string;
    /** e2e: the production build of the web app. */
    webDistDir: string;
  }
}

export {};
