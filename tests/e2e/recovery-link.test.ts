import { describe, expect, it } from 'vitest';
import { serviceClient, uniqueEmail } from '../support/identity.js';
import { ME, signUpMember } from '../support/members.js';
import { checkScreen, heading, newPage } from '../support/screens.js';
import { mailTokens } from '../support/smtp.js';
import { totpCode } from '../support/totp.js';
import { mailingSite } from '../support/site.js';

const site = mailingSite({ AUTH_SMTP_MAX_FREQUENCY: '0' });

describe('links that set a password', () => {
  it('a reset link is used on opening: a used one is reported at once, a fresh one sets the password', async () => {
    const { email, session: elsewhere } = await signUpMember(site.api, { first: 'Dorcas' });
    // A member who has seen the welcome screen, so that /profile opens the editor.
    await site.api.graphql('mutation { completeWelcome { welcome } }', {}, { token: elsewhere.accessToken });
    await site.api.graphql('mutation ($email: String!) { requestPasswordReset(email: $email) { message } }', { email });
    const { link } = mailTokens(await site.smtp.nextMessage(email));

    const fresh = await newPage(site.browser);
    await fresh.page.goto(link);
    await heading(fresh.page, 'Set a new password');
    expect(new URL(fresh.page.url()).search).toBe('');

    // The same link opened again (another tab, or later) is refused before anything is typed.
    const used = await newPage(site.browser);
    await used.page.goto(link);
    await heading(used.page, 'This link did not work');
    expect(await used.page.getByRole('alert').innerText()).toBe('This link has expired or was already used.');
    expect(await used.page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await checkScreen(used.page, 'reset-password-used-link');
    await used.page.getByRole('link', { name: 'Send me a new link' }).click();
    await heading(used.page, 'Forgot your password?');
    await used.context.close();

    await fresh.page.getByLabel('New password', { exact: true }).fill('seven loaves, two fishes');
    await fresh.page.getByRole('button', { name: 'Save my new password' }).click();
    await heading(fresh.page, 'Your page');
    await fresh.page.getByRole('status').filter({ hasText: 'Your new password is set.' }).waitFor();
    expect((await site.api.graphql(ME, {}, { token: elsewhere.accessToken })).status).toBe(401);
    const login = await site.api.graphql(
      'mutation ($input: LoginInput!) { login(input: $input) { member { plan } } }',
      {
        input: { email, password: 'seven loaves, two fishes' },
      },
    );
    expect(login.errors).toBeUndefined();
    await fresh.context.close();
  });

  it('with two-factor sign-in on, the reset page asks for the authenticator code before the new password', async () => {
    const { email, session } = await signUpMember(site.api, { first: 'Tabitha' });
    const token = session.accessToken;
    await site.api.graphql('mutation { completeWelcome { welcome } }', {}, { token });
    const started = await site.api.graphql<{ startMfaSetup: { secret: string } }>(
      'mutation { startMfaSetup { secret } }',
      {},
      { token },
    );
    const secret = started.data?.startMfaSetup.secret ?? '';
    const enrolledAt = Date.now();
    const enrolled = await site.api.graphql(
      'mutation ($code: String!) { verifyMfa(code: $code) { member { plan } } }',
      { code: await totpCode(secret, enrolledAt) },
      { token },
    );
    expect(enrolled.errors).toBeUndefined();
    await site.api.graphql('mutation ($email: String!) { requestPasswordReset(email: $email) { message } }', { email });
    const { link } = mailTokens(await site.smtp.nextMessage(email));

    const { context, page } = await newPage(site.browser);
    await page.goto(link);
    await heading(page, 'Enter your code');
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await checkScreen(page, 'reset-password-code');
    // The next time step's code: the enrolment's own cannot be used twice.
    await page.getByLabel('Code from your authenticator app').fill(await totpCode(secret, enrolledAt + 30_000));
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await heading(page, 'Set a new password');
    await page.getByLabel('New password', { exact: true }).fill('the widow of Joppa');
    await page.getByRole('button', { name: 'Save my new password' }).click();
    await heading(page, 'Your page');
    await page.getByRole('status').filter({ hasText: 'Your new password is set.' }).waitFor();
    await context.close();
  });

  it('an invitation link signs the invitee in, asks for a password, then welcomes them', async () => {
    const email = uniqueEmail('invited');
    const invited = await serviceClient(site.api).auth.admin.inviteUserByEmail(email, { data: { first: 'Lydia' } });
    expect(invited.error).toBeNull();
    const { link } = mailTokens(await site.smtp.nextMessage(email));

    const { context, page } = await newPage(site.browser);
    // Without a redirect_to, the link lands on the site's root, which passes it on.
    await page.goto(link);
    await heading(page, 'Choose your password');
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('status').filter({ hasText: email }).waitFor();
    await checkScreen(page, 'accept-invitation');
    await page.getByLabel('New password', { exact: true }).fill('a lamp unto my feet');
    await page.getByRole('button', { name: 'Save my password' }).click();
    await heading(page, 'Welcome to Lampstand, Lydia');

    const login = await site.api.graphql(
      'mutation ($input: LoginInput!) { login(input: $input) { member { plan } } }',
      {
        input: { email, password: 'a lamp unto my feet' },
      },
    );
    expect(login.errors).toBeUndefined();
    await context.close();
  });
});
