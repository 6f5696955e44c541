// Fails when schema.graphql breaks the published schema without saying so.
// The published schema is schema.graphql at the latest `v*` tag (by version order), or, before the
// first tag or where tags were not fetched, docs/schema/published.graphql. A breaking change passes
// when docs/schema/changes.md marks its path (see that file).
// Usage: npm run schema:compat [-- --against <file>]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config.js';
import { checkSchemaCompat } from '../graphql/schema-compat.js';

const BASELINE_FILE = path.join(projectRoot, 'docs', 'schema', 'published.graphql');
const CHANGES_FILE = path.join(projectRoot, 'docs', 'schema', 'changes.md');

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** The published schema and where it came from. */
function published(): { sdl: string; from: string } {
  const against = process.argv.indexOf('--against');
  const file = against === -1 ? undefined : process.argv[against + 1];
  if (file !== undefined) return { sdl: readFileSync(file, 'utf8'), from: file };
  let tag = '';
  try {
    tag = git('tag', '--list', 'v*', '--sort=-v:refname').split('\n')[0]?.trim() ?? '';
  } catch {
    // Not a git checkout (an image, an archive): the committed baseline stands in.
  }
  if (tag !== '') return { sdl: git('show', `${tag}:schema.graphql`), from: `tag ${tag}` };
  return { sdl: readFileSync(BASELINE_FILE, 'utf8'), from: path.relative(projectRoot, BASELINE_FILE) };
}

const baseline = published();
const current = readFileSync(path.join(projectRoot, 'schema.graphql'), 'utf8');
const changes = existsSync(CHANGES_FILE) ? readFileSync(CHANGES_FILE, 'utf8') : '';
const report = await checkSchemaCompat(baseline.sdl, current, changes);

console.log(`schema.graphql against the published schema (${baseline.from})`);
for (const change of report.dangerous) console.log(`  dangerous: ${change.message} (${change.path})`);
for (const change of report.marked) console.log(`  breaking, marked as intended: ${change.message} (${change.path})`);
if (report.unmarked.length > 0) {
  for (const change of report.unmarked) console.error(`  BREAKING: ${change.message} (${change.path})`);
  console.error(
    'These changes break clients of the published schema. Keep the old shape (deprecate it first), or, ' +
      'when the break is intended, list each path in docs/schema/changes.md with the reason.',
  );
  process.exit(1);
}
console.log('no unmarked breaking changes');
