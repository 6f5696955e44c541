// P4: sign-ins against the password hash's verification alone.
import { report, round } from '../support/options.js';
import { LOGIN_SCHEDULE, alternate, graphql, load } from '../support/load.js';
import { startFloor, startOurs } from '../support/servers.js';

/** P4: login against one argon2id verification per request. */
export async function login(mainFile: string): Promise<void> {
  const ours = await startOurs({ SQLITE_FILE: mainFile });
  const email = `login-${Date.now()}@bench.example`;
  await graphql(ours.url, 'mutation ($input: SignUpInput!) { signUp(input: $input) { confirmationSent } }', {
    input: { email, password: 'correct horse battery staple', first: 'Bench', platform: 'bench' },
  });
  const loginBody = JSON.stringify({
    query: 'mutation ($input: LoginInput!) { login(input: $input) { session { expiresIn } } }',
    variables: { input: { email, password: 'correct horse battery staple' } },
  });
  const hashFloor = await startFloor('hash');
  const hashBody = JSON.stringify({ password: 'correct horse battery staple' });
  const p4 = await alternate(
    (seconds) => load(`${ours.url}/graphql`, () => loginBody, {}, seconds),
    (seconds) => load(hashFloor.url, () => hashBody, {}, seconds),
    LOGIN_SCHEDULE,
  );
  await hashFloor.stop();
  await ours.stop();
  const p4Ratio = p4.ours.rps / p4.floor.rps;
  report({
    id: 'P4',
    label: 'login / argon2id verification alone',
    value: round(p4Ratio),
    unit: '',
    target: '≥ 0.9',
    pass: p4Ratio >= 0.9,
    // Each round's ratio too: a server still warming up shows as a rising series.
    note: `${round(p4.ours.rps, 1)} vs ${round(p4.floor.rps, 1)} req/s, rounds ${p4.rounds.map((ratio) => round(ratio)).join(', ')}${p4.ours.errors ? `, ${p4.ours.errors} errors` : ''}`,
  });
}
