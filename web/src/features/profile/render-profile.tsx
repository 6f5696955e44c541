import { StrictMode } from 'react';
import type { Consent } from '../../consent/consent';
import { ConsentScope } from '../../consent/ConsentScope';
import type { AppConfig } from '../../lib/config';
import { renderHtml } from '../../lib/render-html';
import type { ProfileView_ProfileFragment } from '../../ui/profile/profile-view.generated';
import { ProfileView } from '../../ui/profile/ProfileView';
import { TranslationToggle } from '../../ui/verse/TranslationToggle';
import { PrayerButton } from './PrayerButton';
import type { DayVerse, RenderedPageState } from './rendered-page';
import { ReportPageLink } from './ReportPageLink';

/** Only the footer's "Cookie settings" reads the consent controls here; the browser's islands start their own. */
const CONSENT_PLACEHOLDER: Consent = { showPreferences: () => undefined };

/** What the server knows when it renders a member's page. */
export interface ProfileInput {
  /** The `ProfilePage` query's answer, for a visitor with neither a time zone nor a translation. */
  profile: ProfileView_ProfileFragment & { prayerButton?: { prompt: string } | null };
  /** The day the verse of the day was taken for (today in UTC). */
  day: string;
  /** The verses of the days before and after, by date (none for a pinned verse): see `RenderedPageState.days`. */
  days?: Record<string, DayVerse>;
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
export async function renderProfilePage({ profile, day, days, url, config }: ProfileInput): Promise<RenderedProfile> {
  const html = await renderHtml(
    <StrictMode>
      <ConsentScope consent={config.gtmContainerId ? CONSENT_PLACEHOLDER : null}>
        <ProfileView
          profile={profile}
          url={url}
          verseControls={<TranslationToggle value={profile.verse.translation} onChange={() => undefined} />}
          footer={
            <>
              {profile.prayerButton && <PrayerButton prompt={profile.prayerButton.prompt} />}
              <ReportPageLink username={profile.username} />
            </>
          }
        />
      </ConsentScope>
    </StrictMode>,
    'the profile page',
  );
  const state: RenderedPageState = {
    username: profile.username,
    day,
    translation: profile.verse.translation,
    versePinned: profile.versePinned,
    ...(days && Object.keys(days).length > 0 ? { days } : {}),
  };
  return { html, state };
}
