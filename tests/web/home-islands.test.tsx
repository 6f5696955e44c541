import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLandingIslands } from '../../web/src/features/landing/islands';
import { visitorToday } from '../../web/src/lib/visitor-today';
import { renderHome } from '../../web/src/ssr';

const SERVER_VERSE = {
  id: 'Phil.4.6',
  ref: 'Philippians 4:6',
  text: 'Be careful for nothing; but in every thing by prayer and supplication with thanksgiving let your requests be made known unto God.',
  translation: 'KJV' as const,
};
/** The visitor's own day's verse, which the server (at UTC's day) did not render. */
const VISITOR_VERSES = {
  KJV: { id: 'Ps.46.1', ref: 'Psalms 46:1', text: 'God is our refuge and strength, a very present help in trouble.' },
  WEB: { id: 'Ps.46.1', ref: 'Psalms 46:1', text: 'God is our refuge and strength, a very present help in trouble.!' },
};

/** Answers the landing page's GET of the verse, and nothing else: the page's islands need no more. */
const api = vi.fn((url: string, init?: RequestInit) => {
  const address = new URL(url, 'http://localhost');
  if (init?.method && init.method !== 'GET') throw new Error(`unexpected ${init.method} ${url}`);
  const variables = JSON.parse(address.searchParams.get('variables') ?? '{}') as {
    date?: string;
    translation?: 'KJV' | 'WEB' | null;
  };
  expect(address.searchParams.get('operationName')).toBe('LandingPage');
  expect(variables.date).toBe(visitorToday());
  const translation = variables.translation ?? 'KJV';
  const verse = { __typename: 'Verse', translation, ...VISITOR_VERSES[translation] };
  return Promise.resolve(Response.json({ data: { verseOfTheDay: verse } }));
});

/** The home page as the server sends it (web/src/ssr.tsx), in this document. */
async function serverHome(): Promise<HTMLElement> {
  const { html, state } = await renderHome({
    verse: SERVER_VERSE,
    config: { gtmContainerId: null, billing: false, supportEmail: null },
  });
  document.head.innerHTML = `<script id="lampstand-state" type="application/json">${JSON.stringify(state)}</script>`;
  document.body.innerHTML = `<div id="root">${html}</div>`;
  const root = document.getElementById('root');
  if (!root) throw new Error('the page carries no #root');
  return root;
}

const verseText = () => document.querySelector('.today .verse-text p')?.textContent;

beforeEach(() => {
  localStorage.clear();
  api.mockClear();
  vi.stubGlobal('fetch', api);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe("the home page's islands, before the app", () => {
  it("show the visitor's own day's verse in the server's markup, in place", async () => {
    const root = await serverHome();
    const words = root.querySelector('.today .verse-text p')?.firstChild;
    startLandingIslands(root, null);
    await waitFor(() => {
      expect(verseText()).toBe(VISITOR_VERSES.KJV.text);
    });
    // The server's own text nodes carry the new words, so that the app can take the markup over.
    expect(root.querySelector('.today .verse-text p')?.firstChild).toBe(words);
    expect(root.querySelector('.today .verse-ref')?.textContent).toBe('Psalms 46:1 KJV');
    expect(root.querySelector('.sample-verse p')?.textContent).toBe(VISITOR_VERSES.KJV.text);
    expect(root.querySelector('section.today')?.getAttribute('aria-busy')).toBe('false');
  });

  it('switch the translation in place and keep the choice in this browser, until the app has the page', async () => {
    const root = await serverHome();
    const islands = startLandingIslands(root, null);
    await userEvent.click(screen.getByRole('button', { name: 'WEB' }));
    await waitFor(() => {
      expect(verseText()).toBe(VISITOR_VERSES.WEB.text);
    });
    expect(root.querySelector('.today .verse-ref')?.textContent).toBe('Psalms 46:1 WEB');
    expect(screen.getByRole('button', { name: 'WEB' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'KJV' }).getAttribute('aria-pressed')).toBe('false');
    expect(localStorage.getItem('lampstand.translation')).toBe('WEB');

    // Once stopped (the app takes the page over), the islands leave the page alone.
    const shown = islands.stop();
    expect(shown?.verse.text).toBe(VISITOR_VERSES.WEB.text);
    expect(shown?.variables).toEqual({ date: visitorToday(), translation: 'WEB' });
    const asked = api.mock.calls.length;
    await userEvent.click(screen.getByRole('button', { name: 'KJV' }));
    expect(api.mock.calls.length).toBe(asked);
    expect(verseText()).toBe(VISITOR_VERSES.WEB.text);
    expect(screen.getByRole('button', { name: 'WEB' }).getAttribute('aria-pressed')).toBe('true');
  });
});
