// The module that tells a key press from a click keeps its state for the file: no test here presses
// a key before the landings, which must show no focus ring.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../web/src/app/App';
import { member, refreshed, stubApi } from '../support/web-api';
import { resetAppBetweenTests } from '../support/web-app';

const UID = 'c3d4';

/** Opens an emailed link of `type`, for a member without two-factor sign-in. */
function openLink(type: string) {
  const api = stubApi({
    RefreshSession: () => refreshed(UID),
    AuthMe: () => ({ body: { data: { me: member(UID) } } }),
    EmailLinkTwoFactor: () => ({
      body: { data: { mfaStatus: { __typename: 'MfaStatus', enabled: false, verified: false } } },
    }),
  });
  window.history.replaceState(
    null,
    '',
    `/email-confirmed#access_token=eyJ5ecret&expires_in=3600&refresh_token=r5ecret&token_type=bearer&type=${type}`,
  );
  render(<App consent={null} />);
  return api;
}

/** Every heading the page has shown, in order. */
function recordHeadings(): string[] {
  const seen: string[] = [];
  const observer = new MutationObserver(() => {
    for (const heading of document.querySelectorAll('h1')) {
      if (seen.at(-1) !== heading.textContent) seen.push(heading.textContent);
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return seen;
}

resetAppBetweenTests();

describe('an emailed link’s landing', () => {
  it('goes straight to the account with a notice after an email change, with no page in between', async () => {
    const headings = recordHeadings();
    openLink('email_change');
    const heading = await screen.findByRole('heading', { name: 'Account' });
    expect(window.location.pathname).toBe('/account');
    expect(window.location.href).not.toContain('5ecret');
    await screen.findByText('Your new email address is confirmed. From now on, log in with it.');
    expect(headings.filter((text) => !['Confirming your email address…', 'Account'].includes(text))).toEqual([]);
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
    // Focused for screen readers, without a ring: nobody pressed a key.
    await waitFor(() => {
      expect(document.activeElement).toBe(heading);
    });
    expect(heading.hasAttribute('data-pointer-focus')).toBe(true);
  });

  it('goes straight to the member’s page after a sign-in link', async () => {
    const headings = recordHeadings();
    const api = openLink('magiclink');
    await waitFor(() => {
      expect(window.location.pathname).toBe('/profile');
    });
    expect(api.count('RefreshSession')).toBeGreaterThan(0);
    expect(headings).not.toContain('You are logged in');
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
  });

  it('goes straight to the welcome screen after a sign-up link', async () => {
    openLink('signup');
    await waitFor(() => {
      expect(window.location.pathname).toBe('/welcome');
    });
    await screen.findByText('Your email address is confirmed. Welcome to Lampstand.');
  });

  it('shows the ring on a heading focused after a key press', async () => {
    openLink('email_change');
    await screen.findByRole('heading', { name: 'Account' });
    fireEvent.keyDown(document.body, { key: 'Tab' });
    fireEvent.click(screen.getByRole('link', { name: 'Settings' }));
    const heading = await screen.findByRole('heading', { name: /profile|page/i });
    await waitFor(() => {
      expect(document.activeElement).toBe(heading);
    });
    expect(heading.hasAttribute('data-pointer-focus')).toBe(false);
  });
});
