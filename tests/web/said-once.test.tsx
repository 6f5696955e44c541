import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../web/src/app/App';
import { member, refreshed, session, storeSession, stubApi } from '../support/web-api';

const UID = 'd4e5';

/** The app as main.tsx starts it, at `path`, for a member signed in on an earlier visit. */
function openAsMember(path: string, handlers: Parameters<typeof stubApi>[0] = {}) {
  storeSession(session({ sub: UID }));
  const api = stubApi({
    RefreshSession: () => refreshed(UID),
    AuthMe: () => ({ body: { data: { me: member(UID) } } }),
    Logout: () => ({ body: { data: { logout: true } } }),
    ...handlers,
  });
  window.history.replaceState(null, '', path);
  render(<App consent={null} />);
  return api;
}

function flashText(): string {
  return document.querySelector('.flash-region')?.textContent ?? '';
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('a notice', () => {
  it('does not come back with the Back button', async () => {
    openAsMember('/account');
    await screen.findByRole('heading', { name: 'Account' }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => {
      expect(flashText()).toBe('You are logged out.');
    });

    await userEvent.click(
      within(screen.getByRole('navigation', { name: 'Account' })).getByRole('link', { name: 'Log in' }),
    );
    await screen.findByRole('heading', { name: 'Log in' }, { timeout: 5000 });
    expect(flashText()).toBe('');

    act(() => {
      window.history.back();
    });
    await waitFor(() => {
      expect(window.location.pathname).toBe('/');
    });
    await waitFor(() => {
      expect(screen.queryByRole('heading', { name: 'Log in' })).toBeNull();
    });
    expect(flashText()).toBe('');
  });
});

describe('two-factor sign-in on the account screen', () => {
  it('says it is on once after turning it on', async () => {
    let enabled = false;
    openAsMember('/account', {
      TwoFactorStatus: () => ({
        body: { data: { mfaStatus: { __typename: 'MfaStatus', enabled, verified: enabled } } },
      }),
      StartMfaSetup: () => ({
        body: {
          data: {
            startMfaSetup: {
              __typename: 'MfaSetup',
              factorId: 'f1',
              secret: 'JBSWY3DPEHPK3PXP',
              uri: 'otpauth://totp/Lampstand:lydia?secret=JBSWY3DPEHPK3PXP',
              qrCodeSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
            },
          },
        },
      }),
      ConfirmMfaSetup: () => {
        enabled = true;
        return {
          body: {
            data: { verifyMfa: { __typename: 'AuthPayload', session: session({ sub: UID }), member: member(UID) } },
          },
        };
      },
      GenerateRecoveryCodes: () => ({
        body: { data: { generateRecoveryCodes: ['aaaa-bbbb', 'cccc-dddd'] } },
      }),
    });
    await screen.findByRole('heading', { name: 'Account' }, { timeout: 5000 });
    const section = (await screen.findByRole('heading', { name: 'Two-factor sign-in' })).closest('section');
    if (!section) throw new Error('the two-factor heading is outside a section');
    await userEvent.click(await within(section).findByRole('button', { name: 'Set up two-factor sign-in' }));
    await userEvent.type(await within(section).findByLabelText('Code from your app'), '123456');
    await userEvent.click(within(section).getByRole('button', { name: 'Turn on two-factor sign-in' }));

    await waitFor(() => {
      expect(section.textContent).toContain('Two-factor sign-in is on.');
    });
    await within(section).findByText('aaaa-bbbb');
    expect(section.textContent.split('Two-factor sign-in is on').length - 1).toBe(1);
    // The line that says it is a live region that was there before, so that it is announced.
    expect(
      within(section)
        .getAllByRole('status')
        .some((region) => region.textContent.includes('is on')),
    ).toBe(true);
  });
});
