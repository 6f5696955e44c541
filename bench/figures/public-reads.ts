// P1, P2, P6, P1u and P3: public reads of profiles, with and without kept answers, and `me`.
import { DURATION_S, PROFILES, ROUNDS, quick, report, round, soak, wanted } from '../support/options.js';
import { alternate, checkSameAnswer, graphql, load, rotatingProfileQuery, rssMb } from '../support/load.js';
import type { Running } from '../support/servers.js';
import { UNCACHED, startFloor, startOurs } from '../support/servers.js';

/**
 * P1, P2 and P6 on the server as shipped (anonymous answers kept: graphql/answer-cache.ts); then
 * P1u, the same reads with no answer kept, and P3 on that server: what a read costs, cache aside.
 */
export async function publicReads(mainFile: string): Promise<void> {
  const ours = await startOurs({ SQLITE_FILE: mainFile });
  const floor = await startFloor('sqlite', mainFile);
  await checkSameAnswer(ours, floor);
  const p1 = await alternate(
    (seconds) => load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
    (seconds) => load(`${floor.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
  );
  const p1Ratio = p1.ours.rps / p1.floor.rps;
  report({
    id: 'P1',
    label: `profile(username), ${PROFILES} profiles, ours / bare`,
    value: round(p1Ratio),
    unit: '',
    target: '≥ 0.75',
    pass: p1Ratio >= 0.75,
    note: `${Math.round(p1.ours.rps)} vs ${Math.round(p1.floor.rps)} req/s`,
  });
  report({
    id: 'P2',
    label: 'p99 latency of P1',
    value: p1.ours.p99,
    unit: ' ms',
    target: '≤ 15 ms',
    pass: p1.ours.p99 <= 15,
    note: `bare ${p1.floor.p99} ms`,
  });
  if (wanted('P6')) await memory(ours);
  await ours.stop();

  const uncached = await startOurs({ SQLITE_FILE: mainFile }, UNCACHED);
  const p1u = await alternate(
    (seconds) => load(`${uncached.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
    (seconds) => load(`${floor.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
  );
  await floor.stop();
  report({
    id: 'P1u',
    label: 'P1 with no answer kept, ours / bare',
    value: round(p1u.ours.rps / p1u.floor.rps),
    unit: '',
    target: '≥ 0.75',
    pass: p1u.ours.rps / p1u.floor.rps >= 0.75,
    note: `${Math.round(p1u.ours.rps)} vs ${Math.round(p1u.floor.rps)} req/s, p99 ${p1u.ours.p99} ms`,
  });
  if (wanted('P3')) await authenticatedReads(uncached);
  await uncached.stop();
}

/** P3: `me` with a bearer token, against P1u's read (the same server, no answer kept), alternated. */
async function authenticatedReads(ours: Running): Promise<void> {
  const signUp = (await graphql(
    ours.url,
    'mutation ($input: SignUpInput!) { signUp(input: $input) { session { accessToken } } }',
    {
      input: {
        email: `bench-${Date.now()}@bench.example`,
        password: 'correct horse battery staple',
        first: 'Bench',
        platform: 'bench',
      },
    },
  )) as { data?: { signUp: { session: { accessToken: string } | null } } };
  const token = signUp.data?.signUp.session?.accessToken;
  if (!token) throw new Error(`sign-up for P3 failed: ${JSON.stringify(signUp)}`);
  const meBody = JSON.stringify({ query: '{ me { user { email } profile { username name } } }' });
  const meAnswer = (await graphql(ours.url, '{ me { user { email } profile { username name } } }', {}, token)) as {
    errors?: unknown;
  };
  if (meAnswer.errors !== undefined) throw new Error(`the P3 query fails: ${JSON.stringify(meAnswer.errors)}`);
  const headers = { authorization: `Bearer ${token}` };
  // Alternated with P1u's reads on the same server, as P1 is with the floor.
  const p3 = await alternate(
    (seconds) => load(`${ours.url}/graphql`, () => meBody, headers, seconds),
    (seconds) => load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
  );
  const p3Ratio = p3.ours.rps / p3.floor.rps;
  report({
    id: 'P3',
    label: '`me` with a bearer token / P1u',
    value: round(p3Ratio),
    unit: '',
    target: '≥ 0.9',
    pass: p3Ratio >= 0.9,
    note: `${Math.round(p3.ours.rps)} vs ${Math.round(p3.floor.rps)} req/s`,
  });
}

/** P6: resident memory after a minute of P1 (quick: after the runs above); --soak adds 5 minutes. */
async function memory(ours: Running): Promise<void> {
  if (!quick)
    await load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, Math.max(1, 60 - DURATION_S * ROUNDS));
  const rssMinute = rssMb(ours.child);
  report({
    id: 'P6',
    label: quick ? 'RSS after the P1 runs' : 'RSS after 60 s of P1',
    value: rssMinute,
    unit: ' MB',
    target: '≤ 180 MB',
    pass: rssMinute <= 180,
  });
  if (soak) {
    await load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, 240);
    const rssFive = rssMb(ours.child);
    report({
      id: 'P6b',
      label: 'RSS after 5 min / after 1 min',
      value: round(rssFive / rssMinute),
      unit: '',
      target: '≤ 1.2',
      pass: rssFive / rssMinute <= 1.2,
      note: `${rssFive} MB`,
    });
  }
}
