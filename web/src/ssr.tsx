import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/App';
import type { PrerenderedState } from './app/prerendered';
import type { Consent } from './consent/consent';
import { ConsentScope } from './consent/ConsentScope';
import { primeLandingPage } from './features/landing/server-answer';
import type { RenderedPageState } from './features/profile/rendered-page';
import { ReportPageLink } from './features/profile/ReportPageLink';
import type { AppConfig } from './lib/config';
import { AuthClient } from './session/auth-client';
import type { ProfileView_ProfileFragment } from './ui/profile/ProfileView.generated';
import { ProfileView } from './ui/profile/ProfileView';
import { TranslationToggle } from './ui/verse/TranslationToggle';
import type { VerseCard_VerseFragment } from './ui/verse/verse-card.generated';

/** The query the server answers to render `/@username`: the page's own, from its `.graphql` sources. */
export { PROFILE_PAGE_QUERY } from './features/profile/public-profile-query';

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
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <App
        consent={config.gtmContainerId ? CONSENT_PLACEHOLDER : null}
        auth={auth}
        router={(pages) => <StaticRouter location="/">{pages}</StaticRouter>}
      />
    </StrictMode>,
    {
      onError: (error) => {
        errors.push(error);
      },
    },
  );
  const html = await new Response(prelude).text();
  // A part that failed would reach the page as its loading placeholder: the app shell is better.
  if (errors.length > 0) throw new AggregateError(errors, 'the home page failed to render');
  return { html, state: { path: '/', apollo: auth.apollo.extract() } };
}

/** What the server knows when it renders a member's page. */
export interface ProfileInput {
  /** The `ProfilePage` query's answer, for a visitor with neither a time zone nor a translation. */
  profile: ProfileView_ProfileFragment;
  /** The day the verse of the day was taken for (today in UTC). */
  day: string;
  /** The page's address, which the share button copies. */
  url: string;
  config: AppConfig;
}

/** A member's page for `#root`, and what its islands read (`#lampstand-page`). */
export interface RenderedProfile {
  html: string;
  state: RenderedPageState;
}

/**
 * `/@username` for a visitor signed out, with the components the browser's page uses: the whole
 * page in the HTML (links are plain anchors through `/l/<id>`), which the browser never renders
 * again; web/src/public-page.tsx wakes its interactive pieces from their markup. The toggle shows
 * the translation the verse is in; the browser changes it when this visitor chose another.
 */
export async function renderProfile({ profile, day, url, config }: ProfileInput): Promise<RenderedProfile> {
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <ConsentScope consent={config.gtmContainerId ? CONSENT_PLACEHOLDER : null}>
        <ProfileView
          profile={profile}
          url={url}
          verseControls={<TranslationToggle value={profile.verse.translation} onChange={() => undefined} />}
          footer={<ReportPageLink username={profile.username} />}
        />
      </ConsentScope>
    </StrictMode>,
    {
      onError: (error) => {
        errors.push(error);
      },
    },
  );
  const html = await new Response(prelude).text();
  if (errors.length > 0) throw new AggregateError(errors, 'the profile page failed to render');
  const state: RenderedPageState = {
    username: profile.username,
    day,
    translation: profile.verse.translation,
    versePinned: profile.versePinned,
  };
  return { html, state };
}
