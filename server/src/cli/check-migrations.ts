// Fails when an entity changed without a migration, for either dialect.
// Usage: npm run db:check -w server -- [postgres admin url]
import { entities } from '../app/entities.js';
import type { Dialect } from '../db/schema-diff.js';
import { diffSchema } from '../db/schema-diff.js';

const postgresUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let stale = false;
for (const dialect of ['sqlite', 'postgres'] satisfies Dialect[]) {
  const diff = await diffSchema(dialect, postgresUrl, entities);
  if (diff.up.length > 0) {
    stale = true;
    console.error(`${dialect}: the migrations do not produce the entities; missing:\n  ${diff.up.join(';\n  ')}`);
  } else {
    console.log(`${dialect}: migrations match the entities`);
  }
}
if (stale) {
  console.error('Run `npm run db:migration -w server -- <Name>` and commit the result.');
  process.exit(1);
}
