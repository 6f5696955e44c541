// P5: data size, reads over many profiles against reads over few.
import { LARGE, SMALL, report, round } from '../support/options.js';
import { alternate, load, rotatingProfileQuery } from '../support/load.js';
import { UNCACHED, seededDatabase, startOurs } from '../support/servers.js';

/** P5: the same reads on many profiles against few. */
export async function dataSize(): Promise<void> {
  const [smallFile, largeFile] = [await seededDatabase(SMALL), await seededDatabase(LARGE)];
  // The lookups themselves: with answers kept, the small side would be served from memory.
  const small = await startOurs({ SQLITE_FILE: smallFile }, UNCACHED);
  const large = await startOurs({ SQLITE_FILE: largeFile }, UNCACHED);
  const p5 = await alternate(
    (seconds) => load(`${large.url}/graphql`, rotatingProfileQuery(LARGE), {}, seconds),
    (seconds) => load(`${small.url}/graphql`, rotatingProfileQuery(SMALL), {}, seconds),
  );
  await small.stop();
  await large.stop();
  const p5Ratio = p5.ours.rps / p5.floor.rps;
  report({
    id: 'P5',
    label: `P1 with ${LARGE} / with ${SMALL} profiles`,
    value: round(p5Ratio),
    unit: '',
    target: '≥ 0.9',
    pass: p5Ratio >= 0.9,
  });
}
