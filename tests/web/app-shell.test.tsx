import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Layout } from '../../web/src/ui/Layout';
import { AuthClient } from '../../web/src/session/auth-client';
import { AuthProvider } from '../../web/src/session/AuthProvider';
import { SignOutNavigation } from '../../web/src/session/SignOutNavigation';
import { member, SESSION_STORAGE_KEY, session, stubApi } from '../support/web-api';
import { openAppAsMember, resetAppBetweenTests } from '../support/web-app';

/** Every address the app gives the tab, in order (pushState and replaceState alike). */
function recordAddresses(): string[] {
  const seen: string[] = [];
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = window.history[method].bind(window.history);
    vi.spyOn(window.history, method).mockImplementation((state: unknown, unused: string, url?: string | URL | null) => {
      if (url != null) seen.push(String(url));
      original(state, unused, url);
    });
  }
  return seen;
}

/** The app as main.tsx starts it, at `path`, for a member signed in on an earlier visit, with the addresses it gives the tab. */
function openAsMember(path: string, handlers: Parameters<typeof stubApi>[0] = {}) {
  const uid = 'd4e5';
  let addresses: string[] = [];
  const api = openAppAsMember(path, handlers, { uid, beforeRender: () => (addresses = recordAddresses()) });
  return { api, addresses, uid };
}

resetAppBetweenTests();

describe('leaving a member screen signed out', () => {
  it('goes from a member screen to the home page on log-out, never by the log-in page', async () => {
    const { api, addresses } = openAsMember('/account');
    await screen.findByRole('heading', { name: 'Account' });

    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await screen.findByText('You are logged out.');
    expect(window.location.pathname).toBe('/');
    expect(addresses.filter((address) => address.startsWith('/login'))).toEqual([]);
    expect(screen.getByRole('link', { name: 'Log in' })).toBeDefined();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    await waitFor(() => {
      expect(api.count('Logout')).toBe(1);
    });
  });

  it('goes to the home page when the account is deleted, never by the log-in page', async () => {
    const { api, addresses } = openAsMember('/account', {
      DeleteAccount: () => ({ body: { data: { deleteAccount: true } } }),
    });
    await screen.findByRole('heading', { name: 'Account' });

    await userEvent.click(screen.getByRole('button', { name: 'Delete my account…' }));
    await userEvent.type(screen.getByLabelText('Your password, to confirm'), 'purple cloth merchant');
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    await screen.findByText('Your account and your page have been deleted.');
    expect(window.location.pathname).toBe('/');
    expect(addresses.filter((address) => address.startsWith('/login'))).toEqual([]);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(api.count('DeleteAccount')).toBe(1);
  });

  it('announces the notice in a live region that was there before it, and forgets it for a reload', async () => {
    openAsMember('/account');
    await screen.findByRole('heading', { name: 'Account' });
    const region = screen.getAllByRole('status').find((element) => element.classList.contains('flash-region'));
    expect(region?.textContent).toBe('');

    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => {
      expect(region?.textContent).toBe('You are logged out.');
    });
    await waitFor(() => {
      expect(JSON.stringify(window.history.state)).not.toContain('logged out');
    });
    expect(region?.isConnected).toBe(true);
  });
});

describe('the account screen', () => {
  it('asks for the password when an email change needs it (B13), then sends it', async () => {
    const { api } = openAsMember('/account', {
      UpdateEmail: ({ variables }) =>
        variables.currentPassword === 'purple cloth merchant'
          ? {
              body: {
                data: {
                  updateEmail: { __typename: 'EmailChangePayload', pendingEmail: 'new@example.com', message: 'ok' },
                },
              },
            }
          : {
              body: {
                errors: [{ message: 'Needs the password.', extensions: { code: 'REAUTHENTICATION_NEEDED' } }],
                data: null,
              },
            },
    });
    await userEvent.type(await screen.findByLabelText('New email address'), 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Change email address' }));
    const password = screen.getByLabelText('Your password');
    await waitFor(() => {
      expect(document.activeElement).toBe(password);
    });
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter your current password to change the address.')).toBeDefined();

    await userEvent.type(password, 'purple cloth merchant');
    await userEvent.click(screen.getByRole('button', { name: 'Change email address' }));
    await screen.findByText(/Please check your inbox/);
    expect(api.requests.filter((request) => request.operationName === 'UpdateEmail').map((r) => r.variables)).toEqual([
      { email: 'new@example.com', currentPassword: null },
      { email: 'new@example.com', currentPassword: 'purple cloth merchant' },
    ]);
  });

  it('gives the focus back to "Delete my account…" when the member keeps the account', async () => {
    openAsMember('/account');
    await screen.findByRole('heading', { name: 'Account' });
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account…' }));
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByLabelText('Your password, to confirm'));
    });

    await userEvent.click(screen.getByRole('button', { name: 'Keep my account' }));
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete my account…' }));
    });
  });

  it('reads the strength meter with the new password', async () => {
    openAsMember('/account');
    const input = await screen.findByLabelText('New password');
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ');
    const texts = described.map((id) => document.getElementById(id)?.textContent ?? `missing #${id}`);
    expect(texts).toEqual([
      'At least 8 characters. Common passwords are not accepted.',
      'Use 8 or more characters. A few unrelated words make a strong password.',
    ]);
  });

  it('stays signed out when another tab signs out while a new password is on its way', async () => {
    let answer: (value: { body: object }) => void = () => undefined;
    const { api, uid } = openAsMember('/account', {
      ChangePassword: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    await screen.findByRole('heading', { name: 'Account' });
    await userEvent.type(screen.getByLabelText('Current password'), 'purple cloth merchant');
    await userEvent.type(screen.getByLabelText('New password'), 'seller of purple in Thyatira');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => {
      expect(api.count('ChangePassword')).toBe(1);
    });

    const oldValue = localStorage.getItem(SESSION_STORAGE_KEY);
    localStorage.removeItem(SESSION_STORAGE_KEY);
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', { key: SESSION_STORAGE_KEY, oldValue, newValue: null, storageArea: localStorage }),
      );
    });
    await screen.findByRole('heading', { name: 'Log in' });

    await act(async () => {
      answer({
        body: {
          data: {
            changePassword: { __typename: 'AuthPayload', session: session({ sub: uid }), member: member(uid) },
          },
        },
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(screen.getByRole('link', { name: 'Log in' })).toBeDefined();
  });
});

describe('a page that fails', () => {
  function Broken(): ReactNode {
    throw new Error('the page broke');
  }

  function renderPage(page: ReactNode) {
    stubApi({});
    render(
      <AuthProvider client={new AuthClient({ storage: null })}>
        <MemoryRouter initialEntries={['/broken']}>
          <SignOutNavigation>
            <Routes>
              <Route element={<Layout />}>
                <Route path="broken" element={page} />
                <Route index element={<h1>A fine page</h1>} />
              </Route>
            </Routes>
          </SignOutNavigation>
        </MemoryRouter>
      </AuthProvider>,
    );
  }

  it('says so calmly inside the site frame, and offers to reload', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);
    renderPage(<Broken />);
    expect(screen.getByRole('heading', { name: 'This page could not be shown' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Lampstand home' })).toBeDefined();
    expect(reload).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('lets the member go on to another page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPage(<Broken />);
    await screen.findByRole('heading', { name: 'This page could not be shown' });
    await userEvent.click(screen.getByRole('link', { name: 'Lampstand home' }));
    await screen.findByRole('heading', { name: 'A fine page' });
    expect(screen.queryByRole('heading', { name: 'This page could not be shown' })).toBeNull();
  });
});
