import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthClient } from '../../web/src/session/auth-client';
import { AuthProvider } from '../../web/src/session/AuthProvider';
import { RequireAuth } from '../../web/src/session/RequireAuth';
import { ProfileEditorPage } from '../../web/src/features/editor/ProfileEditorPage';
import type { ApiAnswer, ApiRequest } from '../support/web-api';
import { failure, member, refreshed, session, storeSession, stubApi } from '../support/web-api';

const UID = 'beef';

const DAILY = {
  __typename: 'Verse',
  id: 'Heb.3.4',
  ref: 'Hebrews 3:4',
  text: 'For every house is builded by some man; but he that built all things is God.',
  translation: 'KJV',
};
const JOHN = {
  __typename: 'Verse',
  id: 'John.3.16',
  ref: 'John 3:16',
  text: 'For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.',
  translation: 'KJV',
};

function profile(options: { pinned: boolean; verse: typeof DAILY }) {
  return { ...member(UID).profile, versePinned: options.pinned, verse: options.verse };
}

function editorAnswer(options: { pinned: boolean; verse: typeof DAILY }): ApiAnswer {
  return { body: { data: { me: { __typename: 'Member', profile: profile(options) } } } };
}

function renderEditor(handlers: Record<string, (request: ApiRequest) => ApiAnswer>, options: { plus: boolean }) {
  storeSession(session(options.plus ? { sub: UID, stripeRole: 'plus' } : { sub: UID }));
  const api = stubApi({
    RefreshSession: () => refreshed(UID, options),
    ProfileEditor: () => editorAnswer({ pinned: false, verse: DAILY }),
    ...handlers,
  });
  render(
    <AuthProvider client={new AuthClient({ storage: localStorage })}>
      <MemoryRouter initialEntries={['/profile']}>
        <RequireAuth>
          <ProfileEditorPage />
        </RequireAuth>
      </MemoryRouter>
    </AuthProvider>,
  );
  return api;
}

const previewVerse = () => document.querySelector('.profile--preview .verse-ref')?.textContent ?? '';

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('pinning a verse in the editor', () => {
  it('pins a verse for a Plus member, shows it in the preview, and unpins it again', async () => {
    const api = renderEditor(
      {
        PinVerse: () => ({ body: { data: { pinVerse: profile({ pinned: true, verse: JOHN }) } } }),
        UnpinVerse: () => ({ body: { data: { unpinVerse: profile({ pinned: false, verse: DAILY }) } } }),
      },
      { plus: true },
    );
    await waitFor(() => {
      expect(previewVerse()).toContain('Hebrews 3:4');
    });
    expect(screen.queryByText(/Pinning a verse comes with Plus/)).toBeNull();

    await userEvent.type(screen.getByLabelText('Verse to keep on your page'), 'jn 3:16');
    await userEvent.click(screen.getByRole('button', { name: 'Pin verse' }));
    expect(await screen.findByText('Your page now keeps John 3:16.')).toBeDefined();
    expect(api.requests.find((request) => request.operationName === 'PinVerse')?.variables).toMatchObject({
      ref: 'jn 3:16',
    });
    expect(previewVerse()).toContain('John 3:16');
    expect(screen.getByText(/instead of the verse of the day/).textContent).toBe(
      'Your page keeps John 3:16 instead of the verse of the day.',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Unpin' }));
    expect(await screen.findByText('Your page follows the verse of the day again.')).toBeDefined();
    expect(previewVerse()).toContain('Hebrews 3:4');
    expect(screen.queryByRole('button', { name: 'Unpin' })).toBeNull();
  });

  it('shows a reference the Bible does not have at the field', async () => {
    renderEditor(
      {
        PinVerse: () =>
          failure('BAD_USER_INPUT', 'There is no verse "Hezekiah 1:1" in the King James Bible.', { field: 'ref' }),
      },
      { plus: true },
    );
    const field = await screen.findByLabelText('Verse to keep on your page');
    await userEvent.type(field, 'Hezekiah 1:1');
    await userEvent.click(screen.getByRole('button', { name: 'Pin verse' }));
    await waitFor(() => {
      expect(field.getAttribute('aria-invalid')).toBe('true');
    });
    expect(field.getAttribute('aria-describedby')).toContain('editor-verse-error');
    expect(document.getElementById('editor-verse-error')?.textContent).toBe(
      'There is no verse "Hezekiah 1:1" in the King James Bible.',
    );
    expect(document.activeElement).toBe(field);
  });

  it('marks pinning as Plus for a free member, and shows the refusal at the field with the way to Plus', async () => {
    renderEditor(
      { PinVerse: () => failure('PLUS_REQUIRED', 'Pinning a verse is part of Lampstand Plus.') },
      { plus: false },
    );
    expect(await screen.findByText(/Pinning a verse comes with Plus/)).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Your verse Plus only' })).toBeDefined();

    await userEvent.type(screen.getByLabelText('Verse to keep on your page'), 'John 3:16');
    await userEvent.click(screen.getByRole('button', { name: 'Pin verse' }));
    await waitFor(() => {
      expect(document.getElementById('editor-verse-error')?.textContent).toBe(
        'Pinning a verse is part of Lampstand Plus. Upgrade to Plus',
      );
    });
    const link = document.querySelector('#editor-verse-error a');
    expect(link?.getAttribute('href')).toBe('/plus');
  });
});
