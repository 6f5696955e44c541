// Writes a migration for each dialect from the difference between the entities and a database
// migrated to date. Usage: npm run db:migration -w server -- <PascalCaseName> [postgres admin url]
import { readdirSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entities } from '../app/entities.js';
import type { Dialect } from '../db/schema-diff.js';
import { diffSchema } from '../db/schema-diff.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsDir = path.join(here, '..', 'db', 'migrations');
const dialects: Dialect[] = ['sqlite', 'postgres'];

const [name, postgresUrl = 'postgres://postgres@127.0.0.1:5432/postgres'] = process.argv.slice(2);
if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
  console.error('usage: npm run db:migration -w server -- <PascalCaseName> [postgres admin url]');
  process.exit(2);
}

const quote = (sql: string): string =>
  '`' + sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
const timestamp = Date.now();

for (const dialect of dialects) {
  const diff = await diffSchema(dialect, postgresUrl, entities);
  if (diff.up.length === 0) {
    console.log(`${dialect}: the schema matches the entities; nothing to write`);
    continue;
  }
  const body = (queries: string[]): string =>
    queries.map((sql) => `    await queryRunner.query(${quote(sql)});`).join('\n');
  const file = path.join(migrationsDir, dialect, `${timestamp}-${name}.ts`);
  writeFileSync(
    file,
    `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${name}${timestamp} implements MigrationInterface {
  name = '${name}${timestamp}';

  async up(queryRunner: QueryRunner): Promise<void> {
${body(diff.up)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${body(diff.down)}
  }
}
`,
  );
  console.log(`${dialect}: wrote ${path.relative(process.cwd(), file)}`);
}

await writeIndex();

/** Rewrites migrations/index.ts so that it lists every migration file, in order. */
async function writeIndex(): Promise<void> {
  const lines: string[] = [];
  const lists: string[] = [];
  for (const dialect of dialects) {
    const names = readdirSync(path.join(migrationsDir, dialect))
      .filter((file) => /^\d+-[A-Za-z0-9]+\.ts$/.test(file))
      .sort()
      .map((file) => file.replace(/\.ts$/, ''));
    const identifiers = names.map((file) => {
      const [stamp, className] = file.split('-');
      const identifier = `${dialect}${className}${stamp}`;
      lines.push(`import { ${className}${stamp} as ${identifier} } from './${dialect}/${file}.js';`);
      return identifier;
    });
    lists.push(`export const ${dialect}Migrations = [${identifiers.join(', ')}];`);
  }
  const file = path.join(migrationsDir, 'index.ts');
  const source = `// Written by generate-migration.ts: every migration, per dialect, in the order they run.\n${lines.join('\n')}\n\n${lists.join('\n')}\n`;
  writeFileSync(file, await format(source, { ...(await resolveConfig(file)), filepath: file }));
}
