import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import { BillingCustomerRecord } from '../../../server/src/billing/billing.entities.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import type { CliOutcome } from '../../support/cli.js';
import { runCli } from '../../support/cli.js';
import { refreshedRole, START_CHECKOUT, SUBSCRIPTION } from '../../support/billing.js';
import type { MemberData, SignedUpMember } from '../../support/members.js';
import { firstError, ME, signUpMember } from '../../support/members.js';
import { deliver, signEvent } from '../../support/stripe-fake.js';

const DELETE_ACCOUNT = 'mutation ($password: String!) { deleteAccount(password: $password) }';
let api: TestApp;

beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

/** Runs `npm run plus -- …`'s program as a separate process against the test app's database. */
const plusCommand = (...args: string[]): Promise<CliOutcome> => runCli(api, 'plus', args);

async function plan(member: SignedUpMember): Promise<string | undefined> {
  const response = await api.graphql<{ me: MemberData }>(ME, {}, { token: member.session.accessToken });
  return response.data?.me.plan;
}

describe('without Stripe keys', () => {
  it('lists no plans', async () => {
    expect((await api.graphql('{ plans { priceId } }')).data).toEqual({ plans: [] });
  });

  it.each([
    ['subscription', SUBSCRIPTION, {}],
    ['startCheckout', START_CHECKOUT, { priceId: 'price_anything' }],
    ['openBillingPortal', 'mutation { openBillingPortal { url } }', {}],
  ])('answers %s with BILLING_NOT_CONFIGURED', async (_field, operation, variables) => {
    const member = await signUpMember(api);
    const response = await api.graphql(operation, variables, { token: member.session.accessToken });
    expect(firstError(response).code).toBe('BILLING_NOT_CONFIGURED');
  });

  it('answers the webhook with 503, so that Stripe keeps the event for later', async () => {
    const event = { id: 'evt_1', object: 'event', type: 'product.created', created: 1, data: { object: { id: 'p' } } };
    expect(await deliver(api, signEvent(event))).toEqual({ status: 503, body: { error: 'billing_not_configured' } });
  });

  it('keeps everything else working, and deletes accounts that never went to Stripe', async () => {
    const member = await signUpMember(api);
    expect(await plan(member)).toBe('free');
    const deleted = await api.graphql(
      DELETE_ACCOUNT,
      { password: member.password },
      { token: member.session.accessToken },
    );
    expect(deleted.errors).toBeUndefined();
    expect(await api.dataSource.getRepository(UserRecord).existsBy({ uid: member.member.user.uid })).toBe(false);
  });

  it('refuses to delete an account with a Stripe customer, leaving it as it was', async () => {
    // The member went to checkout while billing was on; their subscriptions could not be cancelled now.
    const member = await signUpMember(api);
    const uid = member.member.user.uid;
    await api.dataSource
      .getRepository(BillingCustomerRecord)
      .insert({ uid, customerId: 'cus_from_before', createdAt: new Date() });

    const refused = await api.graphql(
      DELETE_ACCOUNT,
      { password: member.password },
      { token: member.session.accessToken },
    );
    expect(firstError(refused).code).toBe('BILLING_NOT_CONFIGURED');

    expect(await api.dataSource.getRepository(UserRecord).findOneByOrFail({ uid })).toMatchObject({ deletingAt: null });
    expect(await api.dataSource.getRepository(BillingCustomerRecord).existsBy({ uid })).toBe(true);
    expect(await plan(member)).toBe('free');
    const username = member.member.profile.username;
    const page = await api.graphql<{ profile: { username: string } | null }>(
      'query ($username: String!) { profile(username: $username) { username } }',
      { username },
    );
    expect(page.data?.profile).toEqual({ username });
    expect(await refreshedRole(api, member)).toBeUndefined();
  });
});

describe('npm run plus -- grant|revoke EMAIL', () => {
  it('grants Plus (record, claim, Plus looks) and revokes it', async () => {
    const member = await signUpMember(api);
    const granted = await plusCommand('grant', member.email.toUpperCase());
    expect(granted.stderr).toBe('');
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.stdout).toContain('plan now Plus (granted)');
    expect(await plan(member)).toBe('plus');
    expect(await refreshedRole(api, member)).toBe('plus');
    const looks = await api.graphql(
      'mutation { updateProfile(input: { theme: sunriseTheme }) { theme } }',
      {},
      { token: member.session.accessToken },
    );
    expect(looks.errors).toBeUndefined();

    const revoked = await plusCommand('revoke', member.email);
    expect(revoked).toMatchObject({ code: 0 });
    expect(revoked.stdout).toContain('plan now free');
    expect(await plan(member)).toBe('free');
    expect(await refreshedRole(api, member)).toBeUndefined();
  });

  it('refuses an unknown member and a wrong invocation', async () => {
    const unknown = await plusCommand('grant', 'nobody-here@example.org');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No member has the email address nobody-here@example.org');
    const wrong = await plusCommand('promote', 'someone@example.org');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('usage: npm run plus -- grant|revoke EMAIL');
  });
});
