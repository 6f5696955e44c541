import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../web/src/app/App';
import type { ApiAnswer, ApiRequest } from '../support/web-api';
import { failure, stubApi } from '../support/web-api';

/** The username check as the API answers it: `taken.name` is a member's, the rest is free. */
function usernameAvailable(request: ApiRequest): ApiAnswer {
  const username = String(request.variables.username);
  const taken = username === 'taken.name';
  return {
    body: {
      data: {
        usernameAvailable: {
          __typename: 'UsernameAvailability',
          username,
          available: !taken,
          reason: taken ? 'TAKEN' : null,
        },
      },
    },
  };
}

/** The app at /signup for a visitor, with the API answering sign-up with `signUp`. */
async function openSignUp(signUp: (request: ApiRequest) => ApiAnswer = () => ({ body: {} })) {
  const api = stubApi({ SignUp: signUp, UsernameAvailable: usernameAvailable });
  window.history.replaceState(null, '', '/signup');
  render(<App consent={null} />);
  await screen.findByRole('heading', { name: 'Make your page' });
  return api;
}

async function fillIn(values: { username?: string } = {}) {
  await userEvent.type(screen.getByLabelText('First name'), 'Lydia');
  await userEvent.type(screen.getByLabelText('Email address'), 'lydia@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'purple cloth merchant');
  if (values.username) await userEvent.type(screen.getByLabelText(/^Username/), values.username);
}

async function submit() {
  await userEvent.click(screen.getByRole('button', { name: 'Create my page' }));
}

/** The page's text as people read it: no code in brackets, no identity code, anywhere. */
function expectNoRawCodes() {
  const text = document.body.textContent;
  expect(text).not.toMatch(/\([A-Z]+_[A-Z_]+\)|\([a-z]+_[a-z_]+\)/);
  expect(text).not.toMatch(/\b(weak_password|user_already_exists|over_request_rate_limit)\b/);
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

describe('sign-up failures', () => {
  it('says a refused password in a sentence at its field, with the code set apart as a reference', async () => {
    await openSignUp(() =>
      failure('WEAK_PASSWORD', 'Password is known to be weak and easy to guess, please choose a different one.', {
        field: 'input.password',
        identityCode: 'weak_password',
        reasons: ['pwned'],
      }),
    );
    await fillIn();
    await submit();
    const password = screen.getByLabelText('Password');
    await waitFor(() => {
      expect(password.getAttribute('aria-invalid')).toBe('true');
    });
    const error = document.getElementById('signup-password-error');
    expect(error?.textContent).toContain('That password is too easy to guess, so it cannot be used.');
    expect(within(error ?? document.body).getByText('Error code: WEAK_PASSWORD')).toBeDefined();
    expectNoRawCodes();
  });

  it('says a failure of no field in the banner, in words, with its code set apart', async () => {
    await openSignUp(() =>
      failure('RATE_LIMITED', 'Request rate limit reached', { identityCode: 'over_request_rate_limit' }),
    );
    await fillIn();
    await submit();
    const alert = await screen.findByText(/Too many tries in a short time/);
    expect(alert.closest('[role="alert"]')?.textContent).toContain('Error code: RATE_LIMITED');
    expect(document.body.textContent).not.toContain('Request rate limit reached');
    expectNoRawCodes();
  });
});

describe('an address that already has an account', () => {
  const taken = () =>
    failure('EMAIL_TAKEN', 'An account with this email address already exists.', {
      field: 'input.email',
      identityCode: 'user_already_exists',
    });

  it('offers to log in right there, with the address filled in', async () => {
    await openSignUp(taken);
    await fillIn();
    await submit();
    const error = await waitFor(() => {
      const element = document.getElementById('signup-email-error');
      if (!element) throw new Error('no error at the email address yet');
      return element;
    });
    expect(error.textContent).toContain('An account with this email address already exists.');
    expect(error.textContent).toContain('Error code: EMAIL_TAKEN');
    expectNoRawCodes();

    await userEvent.click(within(error).getByRole('link', { name: 'Log in' }));
    await screen.findByRole('heading', { name: 'Log in' });
    expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('lydia@example.com');
    expect(window.location.href).not.toContain('lydia');
  });

  it('offers to reset the password right there, with the address filled in', async () => {
    await openSignUp(taken);
    await fillIn();
    await submit();
    const link = await screen.findByRole('link', { name: 'reset your password' });
    await userEvent.click(link);
    await screen.findByRole('heading', { name: /forgot/i });
    expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('lydia@example.com');
  });
});

describe('the username, checked as it is typed', () => {
  it('says a taken username is taken, and never shows it as the member’s address', async () => {
    const api = await openSignUp();
    await userEvent.type(screen.getByLabelText(/^Username/), 'Taken.Name');
    expect(await screen.findByText('Someone already has this username. Please choose another.')).toBeDefined();
    expect(screen.getByLabelText(/^Username/).getAttribute('aria-invalid')).toBe('true');
    expect(document.body.textContent).not.toContain('/@taken.name');
    expect(api.count('UsernameAvailable')).toBe(1);
  });

  it('says a free username is free after a pause in typing, and shows it as the address', async () => {
    const api = await openSignUp();
    await userEvent.type(screen.getByLabelText(/^Username/), 'free.name');
    expect(await screen.findByText('This username is free.')).toBeDefined();
    expect(document.getElementById('signup-username-hint')?.textContent).toContain('/@free.name');
    // One check for what was typed without a pause, not one for each key.
    expect(api.requests.filter((request) => request.operationName === 'UsernameAvailable')).toEqual([
      expect.objectContaining({ variables: { username: 'free.name' } }),
    ]);
  });

  it('does not ask the API about a username the shared rule refuses, nor show it as the address', async () => {
    const api = await openSignUp();
    await userEvent.type(screen.getByLabelText(/^Username/), 'a_d_m_i_n');
    await userEvent.tab();
    expect(await screen.findByText(/is reserved/)).toBeDefined();
    expect(document.getElementById('signup-username-hint')?.textContent).not.toContain('/@');
    expect(api.count('UsernameAvailable')).toBe(0);
  });

  it('stops a sign-up with a taken username at the field, without sending it', async () => {
    const api = await openSignUp();
    await fillIn({ username: 'taken.name' });
    await screen.findByText('Someone already has this username. Please choose another.');
    await submit();
    await waitFor(() => {
      expect(document.activeElement?.id).toBe('signup-username');
    });
    expect(api.count('SignUp')).toBe(0);
  });
});
