import { denyByDefault, loadTagManager, updateAnalyticsConsent } from './tag-manager';

/** The consent controls the app shell offers, when there is anything to consent to. */
export interface Consent {
  /** Reopens the cookie settings. */
  showPreferences: () => void;
}

/**
 * Starts consent management for a configured tag manager container: Consent Mode defaults (all
 * denied) before anything else, then the banner, loaded on its own so that pages do not wait for
 * it; the tag manager loads only once the visitor allows analytics. Without a container there is
 * no tag and nothing to ask, so no banner either (returns null).
 */
export function startConsent(containerId: string | null): Consent | null {
  if (!containerId) return null;
  denyByDefault();
  const banner = import('./banner');
  void banner.then(({ runConsentBanner }) => {
    runConsentBanner((granted) => {
      updateAnalyticsConsent(granted);
      if (granted) loadTagManager(containerId);
    });
  });
  return {
    showPreferences: () => {
      void banner.then(({ showConsentPreferences }) => {
        showConsentPreferences();
      });
    },
  };
}
