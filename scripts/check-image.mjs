// `npm run check:image` (part of `npm run check`): builds docker/Dockerfile without a Docker engine.
// Each stage is a folder standing for the image's file system; its COPY, WORKDIR, ENV and RUN steps
// are performed in order, with the same commands (scripts/dockerfile-steps.mjs reads them), on the
// Node 24 the install brings, from a clean copy of the build context (the files git knows, less
// .dockerignore). Then the last stage runs as the image would: the migration step, the server on
// SQLite until its HEALTHCHECK and `/readyz` pass, a sign-up and a sign-in over GraphQL, a graceful
// stop, and an operator command. A Dockerfile that cannot build, or an image that cannot start,
// fails the check. The npm registry is reached through the local cache first.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dockerignore, parseEnv, parseExec, parseStages, splitRun } from './dockerfile-steps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const started = performance.now();
const work = mkdtempSync(path.join(tmpdir(), 'lampstand-image-'));

function log(message) {
  const seconds = ((performance.now() - started) / 1000).toFixed(0).padStart(4);
  console.log(`check:image ${seconds}s  ${message}`);
}

function fail(message) {
  console.error(`\ncheck:image: ${message}\n(the stages are kept in ${work})`);
  process.exit(1);
}

// The image's Node is `node:24-*`: the steps run on the Node 24 the install brings, and on npm.
const nodeMajor = Number(process.versions.node.split('.')[0]);
const npmCli = process.env.npm_execpath;
if (!npmCli || !existsSync(npmCli)) fail('run this through npm: `npm run check:image`');
const bin = path.join(work, 'bin');
mkdirSync(bin);
writeFileSync(path.join(bin, 'node'), `#!/bin/sh\nexec '${process.execPath}' "$@"\n`);
writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\nexec '${process.execPath}' '${npmCli}' "$@"\n`);
for (const tool of ['node', 'npm']) chmodSync(path.join(bin, tool), 0o755);

/** What every step sees besides the Dockerfile's ENV: none of the calling npm's settings. */
const baseEnv = {
  PATH: `${bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
  HOME: process.env.HOME ?? work,
  TMPDIR: process.env.TMPDIR ?? tmpdir(),
  LANG: 'C.UTF-8',
  // Offline when it can be: every package the lockfile names is in the cache after one install.
  npm_config_prefer_offline: 'true',
};

// The build context: a clean copy of the files git knows (tracked, or new and not ignored).
const context = path.join(work, 'context');
const ignored = dockerignore(readFileSync(path.join(root, '.dockerignore'), 'utf8'), path.posix.matchesGlob);
const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (listed.status !== 0) fail(`git ls-files failed: ${listed.stderr}`);
for (const file of new Set(listed.stdout.split('\0'))) {
  if (file === '' || ignored(file) || !existsSync(path.join(root, file))) continue;
  cpSync(path.join(root, file), path.join(context, file), { verbatimSymlinks: true });
}

// The build arguments compose passes: the commit this check builds, as a release would be built.
const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
const buildArgs = { LAMPSTAND_COMMIT: head.status === 0 ? head.stdout.trim() : '' };

const stages = parseStages(readFileSync(path.join(root, 'docker/Dockerfile'), 'utf8'));
/** @type {Map<string, string>} each stage's file system root */
const roots = new Map();
let last = { env: {}, workdir: '/', cmd: /** @type {string[]} */ ([]), healthcheck: /** @type {string[]} */ ([]) };

for (const stage of stages) {
  if (!/^node:(\d+)/.test(stage.image) || Number(/^node:(\d+)/.exec(stage.image)?.[1]) !== nodeMajor) {
    fail(`stage ${stage.name} is FROM ${stage.image}; this check runs Node ${nodeMajor} (node:${nodeMajor}-*)`);
  }
  const fs = path.join(work, 'stages', stage.name);
  mkdirSync(fs, { recursive: true });
  roots.set(stage.name, fs);
  const state = {
    env: /** @type {Record<string, string>} */ ({}),
    args: /** @type {Record<string, string>} */ ({}),
    workdir: '/',
    cmd: [],
    healthcheck: [],
  };
  const inImage = (file) => path.join(fs, path.posix.resolve(state.workdir, file));
  /** The image's absolute paths under WORKDIR, as this stage's folder names them. */
  const local = (text) =>
    state.workdir === '/'
      ? text
      : text.replace(new RegExp(`(?<![\\w.-])${state.workdir}(?=[/\\s'"]|$)`, 'g'), path.join(fs, state.workdir));
  log(`stage ${stage.name} (${stage.image})`);
  for (const { keyword, args, line, flags } of stage.instructions) {
    const where = `docker/Dockerfile:${line}`;
    if (keyword === 'WORKDIR') {
      state.workdir = path.posix.resolve(state.workdir, args);
      mkdirSync(inImage('.'), { recursive: true });
    } else if (keyword === 'ARG') {
      // A build argument: what the caller's environment sets, else the default. It is seen by the
      // stage's RUN steps, not by the running image.
      const [name = '', fallback = ''] = args.split('=', 2);
      state.args[name] = process.env[name] ?? buildArgs[name] ?? fallback.replace(/^"(.*)"$/, '$1');
    } else if (keyword === 'ENV') {
      for (const [name, value] of Object.entries(parseEnv(args))) state.env[name] = local(value);
    } else if (keyword === 'COPY') {
      const parts = args.split(/\s+/);
      const target = parts.pop() ?? '';
      const from = flags.from === undefined ? context : roots.get(flags.from);
      if (from === undefined) fail(`${where}: COPY --from=${flags.from}: no stage of that name before it`);
      for (const source of parts) {
        const origin = path.join(from, source);
        if (!existsSync(origin))
          fail(`${where}: COPY ${source}: not in ${flags.from ? `stage ${flags.from}` : 'the build context'}`);
        const intoFolder = target.endsWith('/') || parts.length > 1;
        const destination = intoFolder ? path.join(inImage(target), path.basename(source)) : inImage(target);
        cpSync(origin, destination, { recursive: true, verbatimSymlinks: true });
      }
    } else if (keyword === 'RUN') {
      for (const step of splitRun(args)) {
        if (step.kind === 'packages') {
          const missing = (step.packages ?? []).filter(
            (tool) => spawnSync('sh', ['-c', `command -v '${tool}'`], { stdio: 'ignore' }).status !== 0,
          );
          if (missing.length > 0) fail(`${where}: this machine lacks ${missing.join(', ')} (apt-get install them)`);
          log(`  ${where}: has ${step.packages?.join(', ')}`);
        } else if (step.kind === 'run') {
          log(`  ${where}: ${step.command.slice(0, 100)}`);
          const result = spawnSync('sh', ['-c', local(step.command)], {
            cwd: inImage('.'),
            env: { ...baseEnv, ...state.args, ...state.env },
            stdio: ['ignore', 'inherit', 'inherit'],
          });
          if (result.status !== 0) fail(`${where}: \`${step.command}\` exited ${result.status ?? result.signal}`);
        }
      }
    } else if (keyword === 'CMD') {
      state.cmd = parseExec(args, line);
    } else if (keyword === 'HEALTHCHECK') {
      state.healthcheck = parseExec(args.replace(/^CMD\s+/, ''), line);
    } else if (!['USER', 'EXPOSE', 'LABEL'].includes(keyword)) {
      fail(`${where}: the check does not know how to perform ${keyword}; teach scripts/check-image.mjs`);
    }
  }
  last = state;
}

const image = roots.get(stages.at(-1)?.name ?? '') ?? fail('docker/Dockerfile has no stage');
const appDir = path.join(image, last.workdir);
if (last.cmd.length === 0 || last.healthcheck.length === 0) fail('the last stage needs a CMD and a HEALTHCHECK');
log(`image built: ${appDir}`);

/** A free loopback port. */
async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

// A real mail server for the mail production requires (smtp-server, a development dependency).
const { SMTPServer } = await import('smtp-server');
const received = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      received.push(Date.now());
      callback();
    });
  },
});
const smtpPort = await freePort();
await new Promise((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const dataDir = path.join(work, 'data');
const runEnv = {
  ...baseEnv,
  ...last.env,
  HOST: '127.0.0.1',
  PORT: String(port),
  METRICS_PORT: String(await freePort()),
  PUBLIC_URL: url,
  DATA_DIR: dataDir,
  AUTH_JWT_SECRET: 'image-check-'.padEnd(48, 'x'),
  AUTH_MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64url'),
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  // The check's own listener on loopback: production takes it only when told it is deliberate.
  SMTP_ALLOW_LOCAL: 'true',
  RECONCILE_ON_START: 'false',
};

/** Runs one of the image's commands to its end, as `docker run <image> node …` would. */
function runInImage(argv, what) {
  const [command = 'node', ...rest] = argv;
  const result = spawnSync(command, rest, { cwd: appDir, env: runEnv, encoding: 'utf8' });
  if (result.status !== 0)
    fail(`${what} (\`${argv.join(' ')}\`) exited ${result.status}:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

runInImage(['node', 'server/dist/cli/migrate.js'], 'the migration step');
log('migrate: done');

const [command = 'node', ...args] = last.cmd;
const server = spawn(command, args, { cwd: appDir, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
server.stdout.on('data', (chunk) => (output += chunk));
server.stderr.on('data', (chunk) => (output += chunk));
const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve(code ?? signal)));
let running = true;
void exited.then(() => (running = false));
// However the check ends, it leaves no server behind.
process.on('exit', () => {
  if (running) server.kill('SIGKILL');
});
const serverFail = (message) => {
  if (running) server.kill('SIGKILL');
  fail(`${message}\n--- the server's output ---\n${output}`);
};

// The HEALTHCHECK's own command, as Docker runs it, until it passes (start period and retries).
const [probe = 'node', ...probeArgs] = last.healthcheck;
for (let attempt = 0; ; attempt += 1) {
  if (!running) serverFail(`the server exited (${await exited}) before its HEALTHCHECK passed`);
  const healthy = await new Promise((resolve) => {
    const child = spawn(probe, probeArgs, { cwd: appDir, env: runEnv, stdio: 'ignore' });
    child.once('exit', (code) => resolve(code === 0));
  });
  if (healthy) break;
  if (attempt >= 120) serverFail('the HEALTHCHECK did not pass within 120 tries');
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
const ready = await fetch(`${url}/readyz`);
if (ready.status !== 200) serverFail(`/readyz answered ${ready.status}`);
const { commit } = /** @type {{ commit?: unknown }} */ (await ready.json());
if (buildArgs.LAMPSTAND_COMMIT !== '' && commit !== buildArgs.LAMPSTAND_COMMIT) {
  serverFail(`/readyz names commit ${String(commit)}, not the ${buildArgs.LAMPSTAND_COMMIT} it was built from`);
}
log('server: HEALTHCHECK and /readyz pass');

async function graphql(query, variables) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) serverFail(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data;
}

const email = `image-check-${Date.now()}@example.com`;
const password = 'correct horse battery staple';
const signUp = await graphql(
  'mutation ($input: SignUpInput!) { signUp(input: $input) { session { accessToken } member { user { email } } } }',
  { input: { email, password, first: 'Grace', platform: 'web' } },
);
if (!signUp.signUp.session?.accessToken) serverFail(`sign-up returned no session: ${JSON.stringify(signUp)}`);
const login = await graphql(
  'mutation ($input: LoginInput!) { login(input: $input) { session { accessToken } member { user { email } } } }',
  { input: { email, password } },
);
if (login.login.member?.user.email !== email) serverFail(`sign-in did not return the member: ${JSON.stringify(login)}`);
const home = await fetch(`${url}/`);
if (home.status !== 200 || !(await home.text()).includes('<html')) serverFail(`/ answered ${home.status}`);
log('server: sign-up, sign-in and the home page work');

server.kill('SIGTERM');
const code = await exited;
if (code !== 0) fail(`the server exited ${code} on SIGTERM, not 0:\n${output}`);
const listing = runInImage(
  ['node', 'server/dist/cli/admin.js', 'list', '--operator', 'image-check'],
  'the operator command',
);
if (!listing.includes(email)) fail(`\`admin.js list\` does not show the new member:\n${listing}`);
log('operator command: lists the new member');
smtp.close();

log('the image builds and runs');
if (keep) log(`kept in ${work}`);
else rmSync(work, { recursive: true, force: true });
