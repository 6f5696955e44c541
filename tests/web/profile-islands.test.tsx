import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIslands } from '../../web/src/features/profile/islands';
import { readRenderedPage } from '../../web/src/features/profile/rendered-page';
import { renderProfile } from '../../web/src/ssr';
import type { ProfileView_ProfileFragment } from '../../web/src/ui/profile/profile-view.generated';

const WEB_TEXT = 'Every house is built by someone, but he who built all things is God.';
const TODAY = new Date().toISOString().slice(0, 10);

function profile(): ProfileView_ProfileFragment {
  return {
    __typename: 'PublicProfile',
    username: 'user123ab',
    name: 'Dorcas',
    bio: 'Full of good works.',
    photoUrl: null,
    links: [],
    plus: true,
    // Pinned: the same verse whatever the visitor's day, so only the translation asks for another.
    versePinned: true,
    translation: 'KJV',
    joined: '2025-03-14T10:00:00.000Z',
    appearance: { __typename: 'Appearance', theme: 'lightTheme', layout: 'row', button: 'normalButton' },
    verse: {
      __typename: 'Verse',
      id: 'Heb.3.4',
      ref: 'Hebrews 3:4',
      text: 'For every house is builded by some man; but he that built all things is God.',
      translation: 'KJV',
    },
  };
}

/** The page as the server sends it (web/src/ssr.tsx), in this document, with its islands started. */
async function serverPage(): Promise<HTMLElement> {
  const { html, state } = await renderProfile({
    profile: profile(),
    day: TODAY,
    url: 'https://lampstand.example/@user123ab',
    config: { gtmContainerId: null, billing: false, supportEmail: null },
  });
  document.head.innerHTML = `<script id="lampstand-page" type="application/json">${JSON.stringify(state)}</script>`;
  document.body.innerHTML = `<div id="root">${html}</div>`;
  const root = document.getElementById('root');
  const page = readRenderedPage();
  if (!root || !page) throw new Error('the page carries no #root or no #lampstand-page');
  startIslands(root, page, null);
  return root;
}

const verseAnswers = vi.fn((url: string) => {
  const variables = JSON.parse(new URL(url, 'http://localhost').searchParams.get('variables') ?? '{}') as {
    translation?: string;
  };
  const verse =
    variables.translation === 'WEB'
      ? { __typename: 'Verse', id: 'Heb.3.4', ref: 'Hebrews 3:4', text: WEB_TEXT, translation: 'WEB' }
      : profile().verse;
  return Promise.resolve(Response.json({ data: { profile: { versePinned: true, verse } } }));
});

beforeEach(() => {
  localStorage.clear();
  verseAnswers.mockClear();
  vi.stubGlobal('fetch', verseAnswers);
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe("the server-rendered page's islands", () => {
  it('switch the translation in place, keep the choice, and ask for nothing while it is the one shown', async () => {
    await serverPage();
    expect(verseAnswers).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'WEB' }));
    await waitFor(() => {
      expect(document.querySelector('.verse-text')?.textContent).toBe(WEB_TEXT);
    });
    expect(document.querySelector('.verse-ref')?.textContent).toBe('Hebrews 3:4 WEB');
    expect(screen.getByRole('button', { name: 'WEB' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'KJV' }).getAttribute('aria-pressed')).toBe('false');
    expect(localStorage.getItem('lampstand.translation')).toBe('WEB');
    const [url] = verseAnswers.mock.calls[0] ?? [''];
    expect(url).toMatch(/^\/graphql\?operationName=ProfileVerse&/);
  });

  it('show the verse in the translation this browser chose before, at once', async () => {
    localStorage.setItem('lampstand.translation', 'WEB');
    await serverPage();
    expect(screen.getByRole('button', { name: 'WEB' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => {
      expect(document.querySelector('.verse-text')?.textContent).toBe(WEB_TEXT);
    });
  });

  it('copy the page’s link where there is no share sheet, and say so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { userAgent: navigator.userAgent, share: undefined, clipboard: { writeText } });
    await serverPage();
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/@user123ab`);
    await waitFor(() => {
      expect(screen.getByRole('status').textContent).toBe('Link copied');
    });
  });

  it('name the button "Share" where the browser has a share sheet', async () => {
    const share = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { userAgent: navigator.userAgent, share, clipboard: { writeText: vi.fn() } });
    await serverPage();
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({ url: `${window.location.origin}/@user123ab`, title: document.title });
  });
});
