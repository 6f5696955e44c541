import { enableCompileCache, flushCompileCache } from 'node:module';
import './vendor-bundles.js';

// V8 keeps the code it compiles for the server's two thousand modules on disk (in the system's
// temporary folder, or NODE_COMPILE_CACHE), and later starts skip most of the compiling (quality.md
// P9). It must be on before those modules load, hence the dynamic imports.
enableCompileCache();
const [
  { buildApp },
  { ConfigError, loadConfig },
  { storageFailureCause },
  { readBuildInfo },
  { giveBackMemoryWhenIdle },
] = await Promise.all([
  import('./app/app.js'),
  import('./config.js'),
  import('./db/errors.js'),
  import('./observability/build-info.js'),
  import('./work/idle-memory.js'),
]);

/** How long in-flight requests get to finish after SIGTERM/SIGINT before the process gives up. */
const SHUTDOWN_GRACE_MS = 10_000;
/** The exit code of a start stopped by its database or data folder (sysexits' EX_IOERR). */
const EXIT_STORAGE = 74;

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const app = await buildApp(config).catch((error: unknown) => {
  // A full or broken disk is the operator's to fix: one line that says so, not a stack.
  const cause = storageFailureCause(error, config.database.type === 'sqlite' ? config.database.file : undefined);
  if (cause === undefined) throw error;
  console.error(`Lampstand cannot start: ${cause}; exit code ${String(EXIT_STORAGE)}`);
  process.exit(EXIT_STORAGE);
});
const build = readBuildInfo();
const release = `${build.version}${build.commit ? ` (${build.commit.slice(0, 12)})` : ''}`;
// One address in the log, the one people and emailed links use (PUBLIC_URL), not the socket's.
await app.listen({
  host: config.host,
  port: config.port,
  listenTextResolver: () => `Lampstand ${release} is ready at ${config.publicUrl}`,
});
// Without the socket's host and port: a second origin in the log would not be the one links use.
app.log.info(
  {
    version: build.version,
    commit: build.commit,
    node: build.node,
    database: config.database.type,
    identity: config.identity.mode,
  },
  'serving',
);
// Written now, not at exit: a process that is killed never exits.
flushCompileCache();
// What start-up and each busy spell leave in the heap goes back to the system when the server is
// quiet (quality.md P6 and F11's memory), never with a request in flight: one waiting on a password
// hash leaves the loop idle, and the collection would hold its answer back.
let requestsInFlight = 0;
app.server.on('request', (_request, response) => {
  requestsInFlight += 1;
  response.once('close', () => {
    requestsInFlight -= 1;
  });
});
const idleMemory = giveBackMemoryWhenIdle({
  working: () => requestsInFlight > 0,
  onGivenBack: (result) => {
    app.log.debug(result, 'memory given back while idle');
  },
});
const { embeddedKeys } = app.identity;
if (embeddedKeys?.developmentCreated) {
  // Shown once, when made: the service-role key passes every check of the identity service.
  app.log.info(
    { anonKey: embeddedKeys.anonKey, serviceRoleKey: embeddedKeys.serviceRoleKey, file: embeddedKeys.developmentFile },
    'embedded identity: development API keys made; they are kept with the development JWT secret in this file',
  );
} else if (embeddedKeys?.development) {
  app.log.info(
    { anonKey: embeddedKeys.anonKey, file: embeddedKeys.developmentFile },
    'embedded identity: development API keys (the service-role key is in this file)',
  );
} else if (embeddedKeys) {
  app.log.info({ anonKey: embeddedKeys.anonKey }, 'embedded identity: anon API key');
}

let closing = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (closing) return;
  closing = true;
  idleMemory.stop();
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  const timer = setTimeout(() => {
    app.log.error('shutdown took too long; exiting');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  timer.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', (signal) => void shutdown(signal));
process.on('SIGINT', (signal) => void shutdown(signal));
