// The operator's command line: npm run admin -- <command> … (see USAGE, and the README's "Operating").
//
// Like `npm run plus`, it builds the services for a moment with no HTTP server (./with-services.ts)
// and calls one use case of server/src/operator/. Every account command writes an audit row naming
// the operator (`--operator`, else the OS user) with the OS user and host it ran as, whether it was
// done, refused or failed.
// `backup` and `restore` work on the database's files without the app (./admin-backup.ts).
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { GraphQLError } from 'graphql';
import { banAccount, unbanAccount } from '../operator/ban-account.js';
import { deleteAccount } from '../operator/delete-account.js';
import { exportAccount } from '../operator/export-account.js';
import { hidePage, unhidePage } from '../operator/hide-page.js';
import { listSignUps } from '../operator/list-signups.js';
import { auditAttempt } from '../operator/audit.js';
import type { OperatorCall, OperatorOrigin } from '../operator/operator-context.js';
import { displayNameProblem } from '../rules/names.js';
import { removeTwoFactor } from '../operator/remove-two-factor.js';
import { readAudit } from '../operator/read-audit.js';
import { listReports, resolveReport } from '../operator/reports-queue.js';
import { showAccount } from '../operator/show-account.js';
import { runFileCommand } from './admin-backup.js';
import { withServices } from './with-services.js';

const USAGE = `usage: npm run admin -- <command> [options] [--operator NAME]

  list [--search TEXT] [--page N] [--per-page N]   sign-ups, newest first
  show ACCOUNT                                     one account (ACCOUNT: id, email or @username)
  ban ACCOUNT [--hours N] [--reason TEXT]          no sign-in, sessions ended, page hidden (default: for good)
  unban ACCOUNT
  remove-2fa ACCOUNT                               turn two-factor sign-in off (a lost phone; check who asks first)
  hide ACCOUNT --reason TEXT                       hide the page; the member sees the reason
  unhide ACCOUNT
  delete ACCOUNT --yes [--reason TEXT]             delete the account as the member's own deletion does
  export ACCOUNT [--out FILE]                      everything held about the member, as JSON
  reports [--all]                                  the reports queue, oldest open first
  resolve REPORT_ID --note TEXT                    close a report with what was decided
  audit [--since WHEN] [--limit N]                 the audit log, newest first (WHEN: 2026-11-27, an ISO time, or 24h, 7d)
  backup DIR                                       SQLite and the data folder's secrets into a new folder, checked (PostgreSQL: pg_dump)
  restore DIR [--force]                            a checked backup over a stopped, empty database (--force: replace one)

  --help, -h                                       this text`;

const OPTIONS = {
  operator: { type: 'string' },
  search: { type: 'string' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  hours: { type: 'string' },
  reason: { type: 'string' },
  note: { type: 'string' },
  out: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string' },
  all: { type: 'boolean' },
  yes: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** A usage mistake: the usage is printed and the exit code is 2. */
class UsageError extends Error {}

function whole(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

const date = (value: Date | null): string => (value ? value.toISOString() : '-');

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--since`: a date or ISO time, or a duration back from now (`30m`, `24h`, `7d`). */
function since(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ago = /^(\d+)([mhd])$/.exec(value);
  if (ago) return new Date(Date.now() - Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS]);
  const at = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : undefined;
  if (at === undefined || Number.isNaN(at.getTime())) {
    throw new UsageError('--since must be a date (2026-11-27), an ISO time, or a duration such as 24h or 7d');
  }
  return at;
}

/** The commands, each taking the positional arguments after its name. */
const COMMANDS: Record<
  string,
  { args: number; run: (call: OperatorCall, args: string[], values: Values) => Promise<void> }
> = {
  list: {
    args: 0,
    run: async (call, _args, values) => {
      const result = await listSignUps(call, {
        search: values.search,
        page: whole(values.page, 'page'),
        perPage: whole(values['per-page'], 'per-page'),
      });
      for (const row of result.rows) {
        console.log([date(row.joined), row.uid, row.email, `@${row.username ?? '-'}`, row.plan, row.state].join('\t'));
      }
      const pages = Math.max(1, Math.ceil(result.total / result.perPage));
      console.log(`page ${String(result.page)} of ${String(pages)} (${String(result.total)} sign-ups)`);
    },
  },
  show: {
    args: 1,
    run: async (call, [account]) => {
      console.log(JSON.stringify(await showAccount(call, account), null, 2));
    },
  },
  ban: {
    args: 1,
    run: async (call, [account], values) => {
      const done = await banAccount(call, account, { hours: whole(values.hours, 'hours'), reason: values.reason });
      const sessions =
        done.sessionsEnded === null
          ? 'sessions end at their next refresh'
          : `${String(done.sessionsEnded)} sessions ended`;
      console.log(`${done.uid}: banned until ${date(done.bannedUntil)}; ${sessions}; page hidden.`);
    },
  },
  unban: {
    args: 1,
    run: async (call, [account]) => {
      console.log(`${(await unbanAccount(call, account)).uid}: ban lifted.`);
    },
  },
  'remove-2fa': {
    args: 1,
    run: async (call, [account]) => {
      const done = await removeTwoFactor(call, account);
      console.log(
        done.removed === 0
          ? `${done.uid}: no two-factor apps to remove.`
          : `${done.uid}: ${String(done.removed)} two-factor app(s) removed; the password alone signs in.`,
      );
    },
  },
  hide: {
    args: 1,
    run: async (call, [account], values) => {
      console.log(`${(await hidePage(call, account, values.reason)).uid}: page hidden.`);
    },
  },
  unhide: {
    args: 1,
    run: async (call, [account]) => {
      console.log(`${(await unhidePage(call, account)).uid}: page shown again.`);
    },
  },
  delete: {
    args: 1,
    run: async (call, [account], values) => {
      if (!values.yes) throw new UsageError('delete needs --yes: it cannot be undone');
      const done = await deleteAccount(call, account, { reason: values.reason });
      console.log(`${done.uid} (${done.email}): deleted.`);
    },
  },
  export: {
    args: 1,
    run: async (call, [account], values) => {
      const json = JSON.stringify(await exportAccount(call, account), null, 2);
      if (values.out === undefined) console.log(json);
      else {
        writeFileSync(values.out, json + '\n', { mode: 0o600 });
        console.log(`written to ${values.out}`);
      }
    },
  },
  reports: {
    args: 0,
    run: async (call, _args, values) => {
      const reports = await listReports(call, { all: values.all });
      for (const report of reports) {
        const state = report.resolvedAt ? `resolved ${date(report.resolvedAt)}` : 'open';
        console.log(
          [
            date(report.createdAt),
            report.id,
            `@${report.username}`,
            report.reason,
            state,
            JSON.stringify(report.note),
          ].join('\t'),
        );
      }
      console.log(`${String(reports.length)} ${values.all ? '' : 'open '}reports`);
    },
  },
  audit: {
    args: 0,
    run: async (call, _args, values) => {
      const rows = await readAudit(call, { since: since(values.since), limit: whole(values.limit, 'limit') });
      for (const row of rows) {
        const where = `${row.osUser ?? '-'}@${row.host ?? '-'}`;
        console.log(
          [date(row.at), row.outcome, row.operator, where, row.action, row.target || '-', row.details].join('\t'),
        );
      }
      console.log(`${String(rows.length)} audit rows, newest first`);
    },
  },
  resolve: {
    args: 1,
    run: async (call, [id], values) => {
      const report = await resolveReport(call, id, values.note);
      console.log(`${report.id}: resolved.`);
    },
  },
};

/** The OS account and machine running the command (a container's user may have no name: its uid then). */
function machineOrigin(): OperatorOrigin {
  let osUser: string;
  try {
    osUser = userInfo().username;
  } catch {
    osUser = `uid ${String(process.getuid?.() ?? '?')}`;
  }
  return { osUser, host: hostname() };
}

/** The `--operator` text as it will be stored, or why it cannot be: 1–100 printable characters. */
function operatorName(given: string): { name: string } | { problem: string } {
  const name = given.trim().normalize('NFC');
  if (name === '' || name.length > 100 || /\p{Cc}/u.test(name) || displayNameProblem(name)) {
    return { problem: '--operator must be a name of 1 to 100 printable characters' };
  }
  return { name };
}

/** What a refused or failed command is recorded as: the account or id it named, else the search. */
function attempted(name: string, args: string[], values: Partial<Values>): { action: string; target: string } {
  return { action: name, target: args[0] ?? values.search ?? '' };
}

/** Coded errors that say the command could not be carried out, rather than that it was not allowed. */
const FAILURE_CODES: ReadonlySet<string> = new Set([
  'IDENTITY_UNAVAILABLE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_SERVER_ERROR',
]);

/** Runs the command and records a refusal or failure; a done command's use case wrote its own row. */
async function runAudited(
  call: OperatorCall,
  name: string,
  args: string[],
  values: Values,
  refusal: string | null,
): Promise<number> {
  const command = COMMANDS[name];
  try {
    if (refusal !== null) throw new UsageError(refusal);
    if (command?.args !== args.length) {
      throw new UsageError(`${name} takes ${String(command?.args)} argument(s)`);
    }
    await command.run(call, args, values);
    return 0;
  } catch (error) {
    const coded = error instanceof GraphQLError ? String(error.extensions.code) : null;
    const outcome = error instanceof UsageError || (coded !== null && !FAILURE_CODES.has(coded)) ? 'refused' : 'failed';
    const message = error instanceof Error ? error.message : String(error);
    await auditAttempt(
      call,
      {
        ...attempted(name, args, values),
        details: { code: coded ?? (error instanceof UsageError ? 'USAGE' : 'ERROR'), message },
      },
      outcome,
    ).catch((auditError: unknown) => {
      console.error(`the audit row could not be written: ${String(auditError)}`);
    });
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${USAGE}`);
      return 2;
    }
    if (coded !== null) {
      console.error(`${coded}: ${message}`);
      return 1;
    }
    throw error;
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv[0] === 'backup' || argv[0] === 'restore') {
    const parsed = parseArgs({
      args: argv,
      options: { force: { type: 'boolean' } },
      allowPositionals: true,
      strict: false,
    });
    const [, dir, ...rest] = parsed.positionals;
    const force = parsed.values.force === true;
    const unknown = Object.keys(parsed.values).filter((key) => key !== 'force');
    if (dir === undefined || rest.length > 0 || unknown.length > 0 || (argv[0] === 'backup' && force)) {
      console.error(`${argv[0]} takes one folder${argv[0] === 'restore' ? ' and --force' : ''}\n${USAGE}`);
      return 2;
    }
    return runFileCommand(argv[0], dir, force);
  }
  const origin = machineOrigin();
  // Own keys only: `toString` and the like are no commands.
  const named = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? argv[0] : undefined;
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    // A command that could not be read at all is still an attempt at it, when it is named first.
    if (named === undefined) {
      console.error(`${problem}\n${USAGE}`);
      return 2;
    }
    const loose = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false });
    const given = typeof loose.values.operator === 'string' ? operatorName(loose.values.operator) : null;
    const operator = given && 'name' in given ? given.name : origin.osUser;
    return withServices(({ operator: deps }) =>
      runAudited({ deps, operator, origin }, named, loose.positionals.slice(1), {}, problem),
    );
  }
  const [name = '', ...args] = parsed.positionals;
  if (!Object.hasOwn(COMMANDS, name)) {
    console.error(USAGE);
    return 2;
  }
  const given = operatorName(parsed.values.operator ?? origin.osUser);
  const operator = 'name' in given ? given.name : origin.osUser;
  const refusal = 'problem' in given ? given.problem : null;
  return withServices(({ operator: deps }) =>
    runAudited({ deps, operator, origin }, name, args, parsed.values, refusal),
  );
}

process.exitCode = await main(process.argv.slice(2));
