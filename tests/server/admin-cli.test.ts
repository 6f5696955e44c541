import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { AuditRecord, ReportRecord } from '../../server/src/moderation/moderation.entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { CliOutcome } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { firstError, LOGIN, ME, SESSION_FIELDS, signUpMember } from '../support/members.js';
import { totpCode } from '../support/totp.js';

let api: TestApp;
const outDir = mkdtempSync(path.join(tmpdir(), 'lampstand-admin-'));

beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
  rmSync(outDir, { recursive: true, force: true });
});

/** Runs `npm run admin -- …`'s program as its own process against the test app's database. */
const admin = (...args: string[]): Promise<CliOutcome> => runCli(api, 'admin', args);

const LOGIN_MFA = `mutation ($input: LoginInput!) { login(input: $input) { session { ${SESSION_FIELDS} mfaRequired } } }`;

const auditOf = (target: string) =>
  api.dataSource.getRepository(AuditRecord).find({ where: { target }, order: { at: 'ASC' } });

const pageStatus = async (username: string) =>
  (
    await api.graphql<{ profile: unknown }>('query ($u: String!) { profile(username: $u) { username } }', {
      u: username,
    })
  ).data?.profile;

describe('npm run admin', () => {
  it('finds sign-ups newest first, by part of an address, and audits the listing', async () => {
    const older = await signUpMember(api, { email: `older.${crypto.randomUUID().slice(0, 8)}@example.com` });
    const newer = await signUpMember(api);
    const listed = await admin('list', '--per-page', '2', '--operator', 'ada');
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toContain(newer.email);
    expect(lines[1]).toContain(older.email);
    const found = await admin('list', '--search', older.email.slice(0, 14).toUpperCase(), '--operator', 'ada');
    expect(found.stdout).toContain(older.email);
    expect(found.stdout).not.toContain(newer.email);
    const rows = await auditOf(older.email.slice(0, 14).toUpperCase());
    expect(rows).toEqual([expect.objectContaining({ operator: 'ada', action: 'list' })]);
  });

  it('hides a page with a reason and shows it again, each step audited', async () => {
    const member = await signUpMember(api);
    const { uid } = member.member.user;
    const { username } = member.member.profile;
    const hidden = await admin('hide', `@${username}`, '--reason', 'Impersonates a pastor.', '--operator', 'ada');
    expect(hidden.code, hidden.stderr).toBe(0);
    expect(await pageStatus(username)).toBeNull();
    const me = await api.graphql<{ me: { profile: { hold: { reason: string } | null } } }>(
      '{ me { profile { hold { reason } } } }',
      {},
      { token: member.session.accessToken },
    );
    expect(me.data?.me.profile.hold?.reason).toBe('Impersonates a pastor.');
    expect((await admin('unhide', member.email, '--operator', 'ada')).code).toBe(0);
    expect(await pageStatus(username)).toEqual({ username });
    expect((await auditOf(uid)).map((row) => [row.action, row.operator, JSON.parse(row.details)])).toEqual([
      ['hide', 'ada', { reason: 'Impersonates a pastor.' }],
      ['unhide', 'ada', { reason: 'Impersonates a pastor.' }],
    ]);
  });

  it('bans an account: no sign-in, sessions ended, page hidden; unban brings them back', async () => {
    const member = await signUpMember(api);
    const { uid } = member.member.user;
    const banned = await admin('ban', uid, '--hours', '24', '--reason', 'spam wave', '--operator', 'ada');
    expect(banned.code, banned.stderr).toBe(0);
    expect(banned.stdout).toContain('1 sessions ended');
    expect(await pageStatus(member.member.profile.username)).toBeNull();
    expect(firstError(await api.graphql(ME, {}, { token: member.session.accessToken })).code).toBe('UNAUTHENTICATED');
    const login = await api.graphql(LOGIN, { input: { email: member.email, password: member.password } });
    expect(login.errors).toBeDefined();

    expect((await admin('unban', uid)).code).toBe(0);
    const again = await api.graphql(LOGIN, { input: { email: member.email, password: member.password } });
    expect(again.errors).toBeUndefined();
    expect(await pageStatus(member.member.profile.username)).not.toBeNull();
    expect((await auditOf(uid)).map((row) => row.action)).toEqual(['ban', 'unban']);
  });

  it("removes a lost phone's two-factor app: the password alone signs in again, audited", async () => {
    const member = await signUpMember(api);
    const { uid } = member.member.user;
    const token = member.session.accessToken;
    const started = await api.graphql<{ startMfaSetup: { secret: string } }>(
      'mutation { startMfaSetup { secret } }',
      {},
      { token },
    );
    const code = await totpCode(started.data?.startMfaSetup.secret ?? '');
    const verified = await api.graphql(
      'mutation ($code: String!) { verifyMfa(code: $code) { session { accessToken } } }',
      {
        code,
      },
      { token },
    );
    expect(verified.errors, JSON.stringify(verified.errors)).toBeUndefined();
    const asked = async () =>
      (
        await api.graphql<{ login: { session: { mfaRequired: boolean } } }>(LOGIN_MFA, {
          input: { email: member.email, password: member.password },
        })
      ).data?.login.session.mfaRequired;
    expect(await asked()).toBe(true);

    const removed = await admin('remove-2fa', `@${member.member.profile.username}`, '--operator', 'ada');
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('1 two-factor app(s) removed');
    expect(await asked()).toBe(false);
    const rows = await auditOf(uid);
    expect(rows.map((row) => [row.operator, row.action])).toEqual([['ada', 'remove-2fa']]);

    const again = await admin('remove-2fa', uid);
    expect(again.stdout).toContain('no two-factor apps to remove');
  });

  it('shows and exports an account, auditing each read', async () => {
    const member = await signUpMember(api);
    const { uid } = member.member.user;
    const shown = await admin('show', member.email, '--operator', 'ada');
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ uid, email: member.email, state: 'ok', hold: null });
    const file = path.join(outDir, `${uid}.json`);
    expect((await admin('export', uid, '--out', file, '--operator', 'ada')).code).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { account: { id: string }; operatorActions: unknown[] };
    expect(exported.account.id).toBe(uid);
    expect(exported.operatorActions).toEqual([expect.objectContaining({ action: 'show', outcome: 'done' })]);
    expect((await auditOf(uid)).map((row) => row.action)).toEqual(['show', 'export']);
  });

  it('deletes an account as its owner would, and keeps the audit row', async () => {
    const member = await signUpMember(api);
    const { uid } = member.member.user;
    expect((await admin('delete', uid)).code).toBe(2);
    expect(await api.dataSource.getRepository(UserRecord).existsBy({ uid })).toBe(true);
    const deleted = await admin('delete', uid, '--yes', '--reason', 'asked by mail', '--operator', 'ada');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(await api.dataSource.getRepository(UserRecord).existsBy({ uid })).toBe(false);
    const login = await api.graphql(LOGIN, { input: { email: member.email, password: member.password } });
    expect(firstError(login).code).toBe('INVALID_CREDENTIALS');
    expect((await auditOf(uid)).map((row) => [row.action, row.outcome])).toEqual([
      ['delete', 'refused'],
      ['delete', 'done'],
    ]);
  });

  it('lists open reports and resolves one, once', async () => {
    const member = await signUpMember(api);
    const report = await api.graphql('mutation ($input: ReportPageInput!) { reportPage(input: $input) }', {
      input: { username: member.member.profile.username, reason: 'spam', note: 'Sells things' },
    });
    expect(report.errors).toBeUndefined();
    const [queued] = await api.dataSource.getRepository(ReportRecord).findBy({ uid: member.member.user.uid });
    if (!queued) throw new Error('no report was queued');
    const listed = await admin('reports');
    expect(listed.stdout).toContain(queued.id);
    const resolved = await admin('resolve', queued.id, '--note', 'Page hidden.', '--operator', 'ada');
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(await api.dataSource.getRepository(ReportRecord).findOneBy({ id: queued.id })).toMatchObject({
      resolvedBy: 'ada',
      resolution: 'Page hidden.',
    });
    expect((await admin('reports')).stdout).not.toContain(queued.id);
    const twice = await admin('resolve', queued.id, '--note', 'again');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('BAD_USER_INPUT');
    expect((await auditOf(queued.id)).map((row) => [row.action, row.outcome])).toEqual([
      ['resolve', 'done'],
      ['resolve', 'refused'],
    ]);
  });

  it('records the OS user and host beside --operator, and refused or failed commands too', async () => {
    const member = await signUpMember(api);
    const { uid } = member.member.user;
    expect((await admin('show', uid, '--operator', 'ada')).code).toBe(0);
    const refusals = [
      [['delete', uid, '--operator', 'mallory'], 'delete needs --yes'],
      [['ban', uid, '--hours', 'soon', '--operator', 'mallory'], 'whole number'],
      [['ban', uid, '--hourz', '3', '--operator', 'mallory'], "Unknown option '--hourz'"],
      [['hide', uid, '--operator', 'ada\u202Emallory'], '--operator must be a name'],
    ] as const;
    for (const [args, words] of refusals) {
      const refused = await admin(...args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(words);
    }
    const failed = await admin(
      'export',
      uid,
      '--out',
      path.join(outDir, 'no-such-folder', 'x.json'),
      '--operator',
      'ada',
    );
    expect(failed.code).toBe(1);
    expect(await api.dataSource.getRepository(UserRecord).findOneByOrFail({ uid })).toMatchObject({
      bannedUntil: null,
      hiddenAt: null,
    });
    const rows = await auditOf(uid);
    const me = userInfo().username;
    expect(rows.map((row) => [row.action, row.operator, row.outcome, row.osUser, row.host])).toEqual([
      ['show', 'ada', 'done', me, hostname()],
      ['delete', 'mallory', 'refused', me, hostname()],
      ['ban', 'mallory', 'refused', me, hostname()],
      ['ban', 'mallory', 'refused', me, hostname()],
      ['hide', me, 'refused', me, hostname()],
      ['export', 'ada', 'done', me, hostname()],
      ['export', 'ada', 'failed', me, hostname()],
    ]);
    expect(JSON.parse(rows[1]?.details ?? '{}')).toEqual({
      code: 'USAGE',
      message: 'delete needs --yes: it cannot be undone',
    });
    expect(JSON.parse(rows[6]?.details ?? '{}')).toMatchObject({
      code: 'ERROR',
      message: expect.stringContaining('ENOENT'),
    });
  });

  it.each([
    [['frobnicate'], 2, 'usage'],
    [['show'], 2, 'usage'],
    [['show', 'nobody@example.com'], 1, 'NOT_FOUND'],
    [['hide', 'nobody@example.com'], 1, 'BAD_USER_INPUT'],
    [['ban', 'x@example.com', '--hours', 'soon'], 2, 'whole number'],
    [['list', '--page', '0'], 1, 'BAD_USER_INPUT'],
    [['resolve', 'not-an-id', '--note', 'x'], 1, 'BAD_USER_INPUT'],
  ])('refuses %j with exit code %i', async (args, code, words) => {
    const result = await admin(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(words);
  });
});
