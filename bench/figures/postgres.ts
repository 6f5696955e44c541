// P10: P1 on PostgreSQL, against a bare pg floor.
import { PROFILES, report, round } from '../support/options.js';
import { alternate, checkSameAnswer, load, rotatingProfileQuery } from '../support/load.js';
import { seededPostgres, startFloor, startOurs } from '../support/servers.js';

/** P10: P1 on PostgreSQL, against node:http + graphql-js + a prepared pg statement. */
export async function postgresReads(): Promise<void> {
  const postgres = await seededPostgres(PROFILES);
  try {
    const oursOnPostgres = await startOurs({ DATABASE_URL: postgres.url });
    const pgFloor = await startFloor('postgres', postgres.url);
    await checkSameAnswer(oursOnPostgres, pgFloor);
    const p10 = await alternate(
      (seconds) => load(`${oursOnPostgres.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
      (seconds) => load(`${pgFloor.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
    );
    await pgFloor.stop();
    await oursOnPostgres.stop();
    const p10Ratio = p10.ours.rps / p10.floor.rps;
    report({
      id: 'P10',
      label: 'P1 on PostgreSQL / bare pg floor',
      value: round(p10Ratio),
      unit: '',
      target: '≥ 0.7',
      pass: p10Ratio >= 0.7,
      note: `${Math.round(p10.ours.rps)} vs ${Math.round(p10.floor.rps)} req/s`,
    });
  } finally {
    await postgres.drop();
  }
}
