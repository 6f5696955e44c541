import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/identity.js';
import { signUpMember } from '../support/members.js';
import { logIn, seriousA11yViolations } from '../support/screens.js';
import { mailingSite } from '../support/site.js';

const site = mailingSite();

describe('prayer requests in the browser', () => {
  it('a visitor sends one from the page; the member reads it, marks it prayed for and replies by mail', async () => {
    const member = await signUpMember(site.api, { first: 'Lydia' });
    await site.api.graphql('mutation { completeWelcome { welcome } }', {}, { token: member.session.accessToken });
    const memberContext = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const inbox = await memberContext.newPage();
    await logIn(inbox, site.api.url, member.email, member.password);
    // The inbox listens for new requests over the app's socket; the test waits until it has asked.
    const listening = inbox.waitForEvent('websocket').then((socket) =>
      socket.waitForEvent('framesent', {
        predicate: (frame) => String(frame.payload).includes('prayerRequestReceived'),
      }),
    );
    await inbox.goto(`${site.api.url}/prayer-requests`);
    await inbox.getByText('No prayer requests yet.').waitFor();
    await listening;
    await inbox.getByLabel('Show “Send a prayer request” on my page').check();
    await inbox.getByRole('button', { name: 'Save' }).click();
    await inbox.getByText('Saved.').waitFor();

    const visitorEmail = uniqueEmail();
    const visitorContext = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
    const visitor = await visitorContext.newPage();
    await visitor.goto(`${site.api.url}/@${member.member.profile.username}`);
    await visitor.getByText('How can I pray for you?').waitFor();
    await visitor.getByRole('button', { name: 'Send a prayer request' }).click();
    await visitor.getByLabel('Your prayer request').fill('Please pray for my job interview on Monday.');
    await visitor.getByLabel(/Your first name/).fill('Silas');
    await visitor.getByLabel(/Your email, for a reply/).fill(visitorEmail);
    await visitor.getByLabel('Keep this private to the owner of this page').check();
    expect(await seriousA11yViolations(visitor)).toEqual([]);
    await visitor.getByRole('button', { name: 'Send prayer request' }).click();
    await visitor.getByText('Thank you. Your prayer request was sent.').waitFor();

    // It arrives in the open inbox as it is sent: no reload, no focus.
    await inbox.getByText('Please pray for my job interview on Monday.').waitFor();
    await inbox.getByText('1 new request.').waitFor();
    await inbox.getByText('Asked to keep it private').waitFor();
    await expect(inbox.content()).resolves.not.toContain(visitorEmail);
    await inbox.getByRole('button', { name: 'Mark as prayed for' }).click();
    await inbox.getByText('Prayed for', { exact: true }).waitFor();
    await inbox.getByRole('button', { name: 'Reply' }).click();
    await inbox.getByLabel(/Your reply/).fill('Praying for you, Silas. God be with you on Monday.');
    await inbox.getByRole('button', { name: 'Send reply' }).click();
    await inbox.getByText('Your reply was sent.').first().waitFor();
    expect(await seriousA11yViolations(inbox)).toEqual([]);

    const mail = await site.smtp.nextMessage(visitorEmail);
    expect(mail.subject).toBe('Lydia replied to your prayer request');
    expect(mail.body).toContain('Praying for you, Silas. God be with you on Monday.');
    await visitorContext.close();
    await memberContext.close();
  });
});
