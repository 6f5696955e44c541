import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { member, session } from '../support/web-api';
import { openAppAsMember, resetAppBetweenTests } from '../support/web-app';

const UID = 'd4e5';

function flashText(): string {
  return document.querySelector('.flash-region')?.textContent ?? '';
}

resetAppBetweenTests();

describe('a notice', () => {
  it('does not come back with the Back button', async () => {
    openAppAsMember('/account');
    await screen.findByRole('heading', { name: 'Account' });
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => {
      expect(flashText()).toBe('You are logged out.');
    });

    await userEvent.click(
      within(screen.getByRole('navigation', { name: 'Account' })).getByRole('link', { name: 'Log in' }),
    );
    await screen.findByRole('heading', { name: 'Log in' });
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
    openAppAsMember('/account', {
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
    await screen.findByRole('heading', { name: 'Account' });
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
