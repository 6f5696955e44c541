import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthClient } from '../../web/src/session/auth-client';
import { AuthProvider } from '../../web/src/session/AuthProvider';
import { RequireAuth } from '../../web/src/session/RequireAuth';
import { SAVE_NEEDS_ACCOUNT, SaveVerseButton } from '../../web/src/ui/verse/SaveVerseButton';
import type { ApiAnswer, ApiRequest } from '../support/web-api';
import { failure, refreshed, session, storeSession, stubApi } from '../support/web-api';

const UID = 'beef';

/** The sign-up screen as the test sees it: the notice the save link left for it. */
function SignUpStandIn() {
  const { state } = useLocation();
  return <p>Sign-up page: {(state as { notice?: string } | null)?.notice}</p>;
}

/** The log-in screen as the test sees it: where it would send the visitor back to. */
function LoginStandIn() {
  const { search } = useLocation();
  return <p>Log-in page: {new URLSearchParams(search).get('next')}</p>;
}

function renderButton(signedIn: boolean, handlers: Record<string, (request: ApiRequest) => ApiAnswer> = {}) {
  if (signedIn) storeSession(session({ sub: UID }));
  const api = stubApi({ RefreshSession: () => refreshed(UID), ...handlers });
  render(
    <AuthProvider client={new AuthClient({ storage: localStorage })}>
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route path="/" element={<SaveVerseButton verseRef="Psalm 118:24" translation="WEB" />} />
          <Route path="/signup" element={<SignUpStandIn />} />
        </Routes>
      </MemoryRouter>
    </AuthProvider>,
  );
  return api;
}

const saved = () => ({
  body: {
    data: {
      saveVerse: {
        __typename: 'SavedVerse',
        savedAt: '2026-11-27T10:00:00.000Z',
        verse: { __typename: 'Verse', id: 'Ps.118.24', ref: 'Psalm 118:24', translation: 'WEB' },
      },
    },
  },
});

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('"Save this verse"', () => {
  it('saves the verse in one tap, in the translation shown, and says where it went', async () => {
    const api = renderButton(true, { SaveVerseButtonSave: saved });
    await userEvent.click(await screen.findByRole('button', { name: 'Save this verse' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved to your verses.');
    expect(api.requests.find((request) => request.operationName === 'SaveVerseButtonSave')?.variables).toEqual({
      ref: 'Psalm 118:24',
      translation: 'WEB',
    });
  });

  it('takes the saving back with Undo', async () => {
    const api = renderButton(true, {
      SaveVerseButtonSave: saved,
      SaveVerseButtonUndo: () => ({ body: { data: { unsaveVerse: true } } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Save this verse' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Undo saving Psalm 118:24' }));
    expect(await screen.findByText('Psalm 118:24 is no longer saved.')).toBeTruthy();
    expect(api.requests.find((request) => request.operationName === 'SaveVerseButtonUndo')?.variables).toEqual({
      verseId: 'Ps.118.24',
    });
    expect(screen.getByRole('button', { name: 'Save this verse' })).toBeTruthy();
  });

  it('says what went wrong when the save is refused, and offers it again', async () => {
    renderButton(true, {
      SaveVerseButtonSave: () => failure('RATE_LIMITED', 'Too many requests; try again in a minute.'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Save this verse' }));
    expect(await screen.findByText('Too many requests; try again in a minute.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save this verse' })).toBeTruthy();
  });

  it('leads a visitor signed out to sign up, with the reason written there', async () => {
    const api = renderButton(false);
    await userEvent.click(await screen.findByRole('link', { name: 'Sign up to save this verse' }));
    expect(await screen.findByText(`Sign-up page: ${SAVE_NEEDS_ACCOUNT}`)).toBeTruthy();
    expect(api.count('SaveVerseButtonSave')).toBe(0);
  });
});

describe('a past day\'s page\'s "Save this verse" (/saved?ref=…)', () => {
  function renderSaved(entry: string) {
    stubApi({ RefreshSession: () => refreshed(UID) });
    render(
      <AuthProvider client={new AuthClient({ storage: localStorage })}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route
              path="/saved"
              element={
                <RequireAuth signUpFirst={(search) => (search.has('ref') ? SAVE_NEEDS_ACCOUNT : null)}>
                  <p>Saved verses</p>
                </RequireAuth>
              }
            />
            <Route path="/signup" element={<SignUpStandIn />} />
            <Route path="/login" element={<LoginStandIn />} />
          </Routes>
        </MemoryRouter>
      </AuthProvider>,
    );
  }

  it('leads a visitor signed out to sign up, with the reason, rather than to log in', async () => {
    renderSaved(`/saved?ref=${encodeURIComponent('Psalm 118:24')}`);
    expect(await screen.findByText(`Sign-up page: ${SAVE_NEEDS_ACCOUNT}`)).toBeTruthy();
  });

  it('still leads a visitor signed out of the saved list itself to log in', async () => {
    renderSaved('/saved');
    expect(await screen.findByText('Log-in page: /saved')).toBeTruthy();
  });
});
