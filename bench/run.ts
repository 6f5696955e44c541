// `npm run bench [-- --quick] [-- --soak] [-- --only P1,P11]`: the performance figures P1–P11 and
// F11 of the quality catalogue (docs in bench/README.md), each as a ratio against a baseline
// measured in the same run. Each figure (or family) is a file of bench/figures/.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { dataSize } from './figures/data-size.js';
import { isolation } from './figures/isolation.js';
import { login } from './figures/login.js';
import { postgresReads } from './figures/postgres.js';
import { publicReads } from './figures/public-reads.js';
import { realisticDay } from './figures/realistic-day.js';
import { startUp } from './figures/start-up.js';
import { firstVisitScripts, lighthouseFigures } from './figures/web.js';
import { PROFILES, figures, quick, root, round, scratch, wanted } from './support/options.js';
import { children, ensureBuild, seededDatabase, stop } from './support/servers.js';

async function main(): Promise<void> {
  ensureBuild();
  console.log(
    `Lampstand bench ${quick ? '(quick) ' : ''}on ${cpus().length} cores, ${round(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}`,
  );
  const mainFile = await seededDatabase(PROFILES);
  if (wanted('P9')) await startUp(mainFile);
  if (wanted('P1', 'P1U', 'P2', 'P3', 'P6')) await publicReads(mainFile);
  if (wanted('P4')) await login(mainFile);
  if (wanted('P5')) await dataSize();
  if (wanted('P7')) firstVisitScripts();
  if (wanted('P8')) await lighthouseFigures(mainFile);
  if (wanted('P10', 'P10U')) await postgresReads();
  if (wanted('F11')) await isolation(mainFile);
  if (wanted('P11')) await realisticDay();

  const resultsDir = path.join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}${quick ? '-quick' : ''}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { date: new Date().toISOString(), quick, cores: cpus().length, node: process.version, figures },
      null,
      2,
    ),
  );
  console.log(`results: ${path.relative(root, file)}`);
}

try {
  await main();
} finally {
  await Promise.all([...children].map((child) => stop(child)));
  rmSync(scratch, { recursive: true, force: true });
}
