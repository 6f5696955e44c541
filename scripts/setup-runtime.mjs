// Runs after every `npm install` / `npm ci` (root postinstall).
//
// The project brings its own Node (the `node-<os>-<arch>` optional dependency, linked as
// node_modules/.bin/node, so every npm script runs on it). This script checks that the scripts
// really run on a supported Node, and compiles better-sqlite3 (a Node-API addon) for that Node
// against the headers shipped beside its binary, with no download. If no compiler is available,
// the package's own prebuilt Node-API binary is used instead, with a warning.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
/** The oldest Node that `engines` allows (`>=MAJOR.MINOR`). */
const [MIN_MAJOR = 22, MIN_MINOR = 0] = (
  /^>=(\d+)(?:\.(\d+))?/.exec(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node) ?? []
)
  .slice(1)
  .map((part) => Number(part ?? 0));

function fail(message) {
  console.error(`\nlampstand setup: ${message}\n`);
  process.exit(1);
}

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < MIN_MAJOR || (major === MIN_MAJOR && minor < MIN_MINOR)) {
  fail(
    `npm scripts run on Node ${process.version} (${process.execPath}), but Lampstand needs Node ${MIN_MAJOR}.${MIN_MINOR} or newer. ` +
      `No Node package for ${process.platform}-${process.arch} was installed from the registry; install Node 24 LTS and run npm install again.`,
  );
}

const packageDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const compiled = path.join(packageDir, 'build', 'Release', 'better_sqlite3.node');

function sqliteLoads() {
  const probe = "const D = require('better-sqlite3'); new D(':memory:').prepare('select 1').get();";
  const result = spawnSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8' });
  return { ok: result.status === 0, detail: (result.stderr || '').trim().split('\n').slice(0, 3).join('\n') };
}

if (existsSync(compiled) && sqliteLoads().ok) {
  process.exit(0);
}

// Headers sit beside the binary in every official Node layout: <prefix>/bin/node, <prefix>/include/node.
const nodedir = path.resolve(path.dirname(process.execPath), '..');
const hasHeaders = existsSync(path.join(nodedir, 'include', 'node', 'node_version.h'));
const nodeGyp =
  process.env.npm_config_node_gyp ??
  (process.env.npm_execpath
    ? path.resolve(path.dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')
    : undefined);
if (!nodeGyp || !existsSync(nodeGyp)) {
  fail('cannot find node-gyp (it ships with npm); run this through `npm install`.');
}

console.log(
  `lampstand setup: compiling better-sqlite3 for Node ${process.version}` +
    (hasHeaders ? ` with the headers in ${nodedir}` : ' (headers fetched by node-gyp)'),
);
const args = [nodeGyp, 'rebuild', '--release', '--jobs=max', '--force_build=1'];
if (hasHeaders) args.push(`--nodedir=${nodedir}`);
const env = { ...process.env };
if (hasHeaders) env.npm_config_nodedir = nodedir;
else delete env.npm_config_nodedir;
// The compiler's hundred lines are kept back, and shown only when the build fails.
const build = spawnSync(process.execPath, args, {
  cwd: packageDir,
  stdio: ['ignore', 'pipe', 'pipe'],
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
  env,
});
const after = sqliteLoads();
if (build.status !== 0) {
  console.warn(`${build.stdout ?? ''}${build.stderr ?? ''}`.trim());
  if (!after.ok) fail(`compiling better-sqlite3 failed (it needs python3, make and a C++ compiler):\n${after.detail}`);
  console.warn('lampstand setup: compiling better-sqlite3 failed; using its prebuilt Node-API binary instead');
} else if (!after.ok) {
  fail(`better-sqlite3 was compiled but does not load:\n${after.detail}`);
} else {
  console.log('lampstand setup: better-sqlite3 ready');
}
