/** The PostgreSQL server the tests create their databases on. */
export function postgresAdminUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}
