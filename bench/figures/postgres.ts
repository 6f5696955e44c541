// P10 and P10u: P1 on PostgreSQL, as shipped and with no answer kept, against a bare pg floor.
import { PROFILES, report, round, wanted } from '../support/options.js';
import { alternate, checkSameAnswer, load, rotatingProfileQuery } from '../support/load.js';
import type { Running } from '../support/servers.js';
import { UNCACHED, seededPostgres, startFloor, startOurs } from '../support/servers.js';

/** P1's reads alternated between a server and the floor: the ratio and both rates. */
async function readsAgainst(ours: Running, floor: Running): Promise<{ ratio: number; note: string }> {
  const runs = await alternate(
    (seconds) => load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
    (seconds) => load(`${floor.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
  );
  return {
    ratio: runs.ours.rps / runs.floor.rps,
    note: `${Math.round(runs.ours.rps)} vs ${Math.round(runs.floor.rps)} req/s, p99 ${runs.ours.p99} ms`,
  };
}

/**
 * P10: P1 on PostgreSQL, against node:http + graphql-js + a prepared pg statement. P10u: the same
 * on a server that keeps no answer (as P1u is to P1): what a read on PostgreSQL costs itself, which
 * every first view, authenticated read and page after a write pays.
 */
export async function postgresReads(): Promise<void> {
  const postgres = await seededPostgres(PROFILES);
  try {
    const pgFloor = await startFloor('postgres', postgres.url);
    if (wanted('P10')) {
      const oursOnPostgres = await startOurs({ DATABASE_URL: postgres.url });
      await checkSameAnswer(oursOnPostgres, pgFloor);
      const p10 = await readsAgainst(oursOnPostgres, pgFloor);
      await oursOnPostgres.stop();
      report({
        id: 'P10',
        label: 'P1 on PostgreSQL / bare pg floor',
        value: round(p10.ratio),
        unit: '',
        target: '≥ 0.7',
        pass: p10.ratio >= 0.7,
        note: p10.note,
      });
    }
    if (wanted('P10U')) {
      const uncached = await startOurs({ DATABASE_URL: postgres.url }, UNCACHED);
      await checkSameAnswer(uncached, pgFloor);
      const p10u = await readsAgainst(uncached, pgFloor);
      await uncached.stop();
      report({
        id: 'P10u',
        label: 'P10 with no answer kept / bare pg floor',
        value: round(p10u.ratio),
        unit: '',
        target: '≥ 0.7',
        pass: p10u.ratio >= 0.7,
        note: p10u.note,
      });
    }
    await pgFloor.stop();
  } finally {
    await postgres.drop();
  }
}
