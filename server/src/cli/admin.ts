// The operator's command line: npm run admin -- <command> … (see USAGE, and the README's "Operating").
//
// Like `npm run plus`, it runs the app for a moment (./running-app.ts) and calls one use case of
// server/src/operator/. Every command
// writes an audit row naming the operator (`--operator`, else the OS user).
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { GraphQLError } from 'graphql';
import { banAccount, unbanAccount } from '../operator/ban-account.js';
import { deleteAccount } from '../operator/delete-account.js';
import { exportAccount } from '../operator/export-account.js';
import { hidePage, unhidePage } from '../operator/hide-page.js';
import { listSignUps } from '../operator/list-signups.js';
import type { OperatorCall } from '../operator/operator-context.js';
import { removeTwoFactor } from '../operator/remove-two-factor.js';
import { listReports, resolveReport } from '../operator/reports-queue.js';
import { showAccount } from '../operator/show-account.js';
import { withRunningApp } from './running-app.js';

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
  resolve REPORT_ID --note TEXT                    close a report with what was decided`;

const OPTIONS = {
  operator: { type: 'string' },
  search: { type: 'string' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  hours: { type: 'string' },
  reason: { type: 'string' },
  note: { type: 'string' },
  out: { type: 'string' },
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
  resolve: {
    args: 1,
    run: async (call, [id], values) => {
      const report = await resolveReport(call, id, values.note);
      console.log(`${report.id}: resolved.`);
    },
  },
};

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const [name = '', ...args] = parsed.positionals;
  // Own keys only: `toString` and the like are no commands.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command?.args !== args.length) {
    console.error(USAGE);
    return 2;
  }
  const operator = (parsed.values.operator ?? userInfo().username).trim();
  if (operator === '' || operator.length > 100) {
    console.error('--operator must be a name of 1 to 100 characters');
    return 2;
  }
  return withRunningApp(async (app) => {
    try {
      await command.run({ deps: app.operator, operator }, args, parsed.values);
      return 0;
    } catch (error) {
      if (error instanceof UsageError) {
        console.error(`${error.message}\n${USAGE}`);
        return 2;
      }
      if (error instanceof GraphQLError) {
        console.error(`${String(error.extensions.code)}: ${error.message}`);
        return 1;
      }
      throw error;
    }
  });
}

process.exitCode = await main(process.argv.slice(2));
