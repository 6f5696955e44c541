import { StrictMode } from 'react';
import { StaticRouter } from 'react-router';
import { App } from './app/App';
import type { PrerenderedState } from './app/prerendered';
import type { Consent } from './consent/consent';
import { primeLandingPage } from './features/landing/server-answer';
import type { ProfileInput, RenderedProfile } from './features/profile/render-profile';
import type { AppConfig } from './lib/config';
import { renderHtml } from './lib/render-html';
import { AuthClient } from './session/auth-client';
import type { VerseCard_VerseFragment } from './ui/verse/verse-card.generated';

/** The query the server answers to render `/@username`: the page's own, from its `.graphql` sources. */
export { PROFILE_PAGE_QUERY } from './features/profile/public-profile-query';
export type { ProfileInput, RenderedProfile } from './features/profile/render-profile';

/** What the server knows when it renders the home page. */
export interface HomeInput {
  /** Today's verse as the API answers `verseOfTheDay` with no time zone and no translation. */
  verse: Omit<VerseCard_VerseFragment, '__typename'>;
  /** The settings the page carries in `#lampstand-config`. */
  config: AppConfig;
}

/** The home page's markup for `#root`, and what the browser needs to take it over (`#lampstand-state`). */
export interface RenderedHome {
  html: string;
  state: PrerenderedState;
}

/** Only the footer's "Cookie settings" reads the consent controls here; the browser starts its own. */
const CONSENT_PLACEHOLDER: Consent = { showPreferences: () => undefined };

/**
 * The server's entry (`vite build --ssr`, into web/dist-ssr/): the app's own tree at `/` for a
 * visitor signed out, with the verse of the day in its GraphQL cache, once every lazy page has
 * loaded. The server (server/src/app/home-page.ts) imports it on the first request for `/`.
 */
export async function renderHome({ verse, config }: HomeInput): Promise<RenderedHome> {
  const auth = new AuthClient({ storage: null, ssrMode: true });
  primeLandingPage(auth.apollo, verse);
  const html = await renderHtml(
    <StrictMode>
      <App
        consent={config.gtmContainerId ? CONSENT_PLACEHOLDER : null}
        auth={auth}
        router={(pages) => <StaticRouter location="/">{pages}</StaticRouter>}
      />
    </StrictMode>,
    'the home page',
  );
  return { html, state: { path: '/', apollo: auth.apollo.extract() } };
}

/**
 * A member's page (features/profile/render-profile.tsx), loaded on the first request for one, so
 * that the home page's first rendering does not wait for the profile's components too.
 */
export async function renderProfile(input: ProfileInput): Promise<RenderedProfile> {
  const { renderProfilePage } = await import('./features/profile/render-profile');
  return renderProfilePage(input);
}
