// `npm start`: builds the web app and the server when a build is missing or older than its
// sources, then runs the compiled server in this process's place (signals reach it, its exit
// code is ours). A fresh clone builds once; later starts take a second.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** The newest modification time under `target` (a file or a folder), or 0 when it does not exist. */
function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

const built = Math.min(...OUTPUTS.map((output) => (existsSync(at(output)) ? statSync(at(output)).mtimeMs : 0)));
const changed = Math.max(...SOURCES.map((source) => newest(at(source))));
if (built === 0 || changed > built) {
  console.log(
    built === 0 ? 'lampstand: building (first start)…' : 'lampstand: sources changed since the last build; building…',
  );
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
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
