import * as CookieConsent from 'vanilla-cookieconsent';
import 'vanilla-cookieconsent/dist/cookieconsent.css';
import './banner.css';

const ANALYTICS = 'analytics';

/**
 * Shows the consent banner on a first visit (and whenever consent is missing or outdated) and
 * reports the analytics choice: on every page load with a valid choice, and when it changes.
 */
export function runConsentBanner(onAnalyticsChoice: (granted: boolean) => void): void {
  const report = () => {
    onAnalyticsChoice(CookieConsent.acceptedCategory(ANALYTICS));
  };
  void CookieConsent.run({
    guiOptions: {
      consentModal: { layout: 'box inline', position: 'bottom left', equalWeightButtons: true },
      preferencesModal: { layout: 'box', equalWeightButtons: true },
    },
    categories: {
      necessary: { enabled: true, readOnly: true },
      [ANALYTICS]: {
        // Google Analytics' cookies, dropped as soon as the visitor withdraws consent.
        autoClear: { cookies: [{ name: /^_ga/ }, { name: '_gid' }] },
      },
    },
    onConsent: report,
    onChange: report,
    language: {
      default: 'en',
      translations: {
        en: {
          consentModal: {
            title: 'May we count your visit?',
            description:
              'Lampstand uses only the cookies it needs to work. With your permission we would also use analytics cookies to learn which pages help people. You can change your mind at any time under “Cookie settings”.',
            acceptAllBtn: 'Allow analytics',
            acceptNecessaryBtn: 'Only necessary',
            showPreferencesBtn: 'Choose',
          },
          preferencesModal: {
            title: 'Cookie settings',
            acceptAllBtn: 'Allow all',
            acceptNecessaryBtn: 'Only necessary',
            savePreferencesBtn: 'Save my choice',
            closeIconLabel: 'Close',
            sections: [
              {
                title: 'Necessary',
                description: 'Remember this choice. Always on.',
                linkedCategory: 'necessary',
              },
              {
                title: 'Analytics',
                description:
                  'Anonymous visit counts through Google Tag Manager and Google Analytics. Off unless you turn it on.',
                linkedCategory: ANALYTICS,
              },
            ],
          },
        },
      },
    },
  });
}

/** Opens the settings, so a visitor can change or withdraw consent. */
export function showConsentPreferences(): void {
  CookieConsent.showPreferences();
}
