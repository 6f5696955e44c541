// `npm start`: builds the web app and the server when a build is missing or its sources differ from
// what it was built from, then runs the compiled server in this process's place (signals reach it,
// its exit code is ours). A fresh clone builds once; later starts go straight to the server.
//
// A build leaves a stamp (server/dist/.build-stamp.json) with a hash of the sources it read. When no
// source is newer than the stamp, the build is current without reading a file; when some are (a
// checkout, an editor's save, `npm install` rewriting package-lock.json with the same content), the
// sources are hashed and only a different hash builds again.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);

/** What the builds read: the web app imports shared rules from server/src, so both look at both. */
const SOURCES = [
  'web/src',
  'web/index.html',
  'web/home.html',
  'web/profile.html',
  'web/public',
  'web/vite.config.ts',
  'web/package.json',
  'server/src',
  'server/package.json',
  'server/tsconfig.json',
  'scripts/vendor-bundles.mjs',
  'tsconfig.json',
  'package-lock.json',
];
const OUTPUTS = [
  'web/dist/index.html',
  'web/dist/home.html',
  'web/dist/profile.html',
  'web/dist-ssr/ssr.js',
  'server/dist/main.js',
];

const STAMP = 'server/dist/.build-stamp.json';

/** Every file and folder under `target`, sorted, with its modification time (a removal changes its folder's). */
function walk(target, found = []) {
  if (!existsSync(at(target))) return found;
  const stat = statSync(at(target));
  found.push({ name: target, mtime: stat.mtimeMs, folder: stat.isDirectory() });
  if (stat.isDirectory())
    for (const entry of readdirSync(at(target)).sort()) walk(path.posix.join(target, entry), found);
  return found;
}

/** What the build read, names and contents, as one hash. */
function sourcesHash(entries) {
  const hash = createHash('sha256');
  for (const { name, folder } of entries) {
    if (!folder)
      hash
        .update(`${name}\0`)
        .update(readFileSync(at(name)))
        .update('\0');
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return { hash: String(JSON.parse(readFileSync(at(STAMP), 'utf8')).hash), at: statSync(at(STAMP)).mtimeMs };
  } catch {
    return undefined;
  }
}

const sources = SOURCES.flatMap((source) => walk(source));
const stamp = OUTPUTS.every((output) => existsSync(at(output))) ? readStamp() : undefined;
let hash;
if (stamp && sources.some(({ mtime }) => mtime > stamp.at)) {
  hash = sourcesHash(sources);
  // Same content, newer files: the stamp takes the new times, so the next start reads nothing.
  if (hash === stamp.hash) writeFileSync(at(STAMP), `${JSON.stringify({ hash })}\n`);
}
if (!stamp || (hash !== undefined && hash !== stamp.hash)) {
  console.log(stamp ? 'lampstand: sources changed since the last build; building…' : 'lampstand: building…');
  hash = sourcesHash(sources);
  // The stamp is dated from before the build: a source saved while it runs is seen at the next start.
  const began = new Date();
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(at(STAMP), `${JSON.stringify({ hash })}\n`);
  utimesSync(at(STAMP), began, began);
}

const { flags, env } = JSON.parse(readFileSync(at('server/node-flags.json'), 'utf8'));
const server = spawn(process.execPath, [...flags, '--enable-source-maps', at('server/dist/main.js')], {
  cwd: at('server'),
  stdio: 'inherit',
  // glibc reads MALLOC_ARENA_MAX when the process starts: only a launcher can set it.
  env: { ...env, ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.kill(signal);
  });
}
server.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
