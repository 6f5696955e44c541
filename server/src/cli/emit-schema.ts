// Writes schema.graphql, the API contract that codegen and third-party clients read.
// With --check, writes nothing and fails when the committed file is out of date.
import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildAppSchema } from '../app/schema.js';
import { projectRoot } from '../config.js';
import { printSortedSchema } from '../graphql/schema.js';

const target = path.join(projectRoot, 'schema.graphql');
const printed = printSortedSchema(await buildAppSchema());

if (process.argv.includes('--check')) {
  const committed = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (committed !== printed) {
    console.error('schema.graphql is out of date with the resolvers: run `npm run schema` and commit it.');
    process.exit(1);
  }
  console.log('schema.graphql is up to date');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
