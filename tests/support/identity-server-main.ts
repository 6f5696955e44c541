// The embedded identity service run on its own, as a separate process (tests start it with
// `startIdentityProcess`), the way a hosted Supabase Auth is reached: configured by the environment,
// it answers at the root path and at /auth/v1, and prints one JSON line with its API keys once
// listening. SIGTERM closes it.
import { loadConfig } from '../../server/src/config.js';
import { createDataSource } from '../../server/src/app/data-source.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import { loadIdentityKeys } from '../../server/src/identity/embedded/keys.js';
import { createIdentityServer } from '../../server/src/identity/embedded/service.js';

const config = loadConfig();
const dataSource = await openDatabase(createDataSource(config.database));
const server = await createIdentityServer(config, dataSource);
const { anonKey, serviceRoleKey } = await loadIdentityKeys(config);
await server.listen({ host: config.host, port: config.port });
process.stdout.write(`${JSON.stringify({ anonKey, serviceRoleKey })}\n`);
process.once('SIGTERM', () => {
  void server
    .close()
    .then(() => dataSource.destroy())
    .then(() => process.exit(0));
});
