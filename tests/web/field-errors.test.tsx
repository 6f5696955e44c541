import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure } from '../support/web-api';
import { openAppAsMember, resetAppBetweenTests } from '../support/web-app';

resetAppBetweenTests();

/** What the form says at the input, and whether the input has the focus, once the API refused. */
async function saidAt(input: HTMLElement) {
  await waitFor(() => {
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
  return {
    words: document.getElementById(`${input.id}-error`)?.textContent ?? '',
    focused: document.activeElement === input,
  };
}

describe('a refusal that names one of the form’s inputs', () => {
  it('shows a refused new password at that input and focuses it', async () => {
    openAppAsMember('/account', {
      ChangePassword: () =>
        failure('WEAK_PASSWORD', 'Password is too weak.', { field: 'newPassword', reasons: ['pwned'] }),
    });
    await userEvent.type(await screen.findByLabelText('Current password'), 'purple cloth merchant');
    const next = screen.getByLabelText('New password');
    await userEvent.type(next, 'lydia sells purple cloth');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await saidAt(next)).toEqual({
      words: 'That password is too easy to guess, so it cannot be used. A few unrelated words work well.',
      focused: true,
    });
    expect(screen.getByLabelText('Current password').getAttribute('aria-invalid')).not.toBe('true');
  });

  it('shows a wrong current password, which names no input, at the current password', async () => {
    openAppAsMember('/account', {
      ChangePassword: () => failure('INVALID_CREDENTIALS', 'Invalid login credentials'),
    });
    const current = await screen.findByLabelText('Current password');
    await userEvent.type(current, 'not my password');
    await userEvent.type(screen.getByLabelText('New password'), 'lydia sells purple cloth');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await saidAt(current)).toEqual({ words: 'The email or password is not right.', focused: true });
  });

  it('shows a wrong password at the account deletion’s password, and deletes nothing', async () => {
    const api = openAppAsMember('/account', {
      DeleteAccount: () => failure('INVALID_CREDENTIALS', 'Invalid login credentials'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete my account…' }));
    const password = screen.getByLabelText('Your password, to confirm');
    await userEvent.type(password, 'not my password');
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account for good' }));

    expect(await saidAt(password)).toEqual({ words: 'The email or password is not right.', focused: true });
    expect(window.location.pathname).toBe('/account');
    expect(api.count('DeleteAccount')).toBe(1);
  });
});
