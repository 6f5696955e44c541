import type { Consent } from '../../consent/consent';
import type { Translation } from '../../gql/schema-types';
import { chooseTranslation, readTranslationChoice } from '../../lib/translation-choice';
import { visitorToday } from '../../lib/visitor-today';
import type { LandingPageQueryVariables } from './landing-page.generated';
import { fetchLandingVerse } from './verse-query';
import type { LandingVerse } from './verse-query';

/** The verse the page shows, and the variables the app would ask it with, for the app to take over. */
export interface ShownVerse {
  verse: LandingVerse;
  variables: LandingPageQueryVariables;
}

/** The landing page's islands, until the app takes the page over. */
export interface LandingIslands {
  /** Leaves the page to the app: the islands touch it no more. What the page shows, when it changed. */
  stop(): ShownVerse | null;
}

/** Sets a text node's words in place, so that the markup stays the server's (the app takes it over). */
function setText(node: ChildNode | null | undefined, words: string): void {
  if (node?.nodeType === Node.TEXT_NODE && node.textContent !== words) node.textContent = words;
}

/** The verse card's words, reference and translation, and the sample page's copy of them. */
function showVerse(root: HTMLElement, verse: LandingVerse): void {
  for (const [words, caption] of [
    ['.today .verse-text p', '.today .verse-ref'],
    ['.sample-verse p', '.sample-verse footer'],
  ] as const) {
    setText(root.querySelector(words)?.firstChild, verse.text);
    const ref = root.querySelector(caption);
    setText(ref?.firstChild, verse.ref);
    setText(ref?.querySelector('.translation')?.firstChild, verse.translation);
  }
}

function pressTranslation(root: HTMLElement, translation: Translation): void {
  for (const option of root.querySelectorAll<HTMLButtonElement>('.today .translation-toggle button')) {
    option.setAttribute('aria-pressed', String(option.textContent === translation));
  }
}

/**
 * Brings the server-rendered landing page to life without React: its links are plain anchors
 * already; the verse becomes the one of the visitor's own day (the server knows only UTC's) in the
 * translation kept in this browser, the KJV/WEB buttons switch it in place, and "Cookie settings"
 * opens the consent controls. Only the card's words change, in the server's own text nodes, so
 * that the app can take the page over as it stands (app/boot.tsx).
 */
export function startLandingIslands(root: HTMLElement, consent: Consent | null): LandingIslands {
  const today = root.querySelector<HTMLElement>('section.today');
  let stopped = false;
  let shown: ShownVerse | null = null;
  let shownTranslation: Translation = 'KJV';
  let asked = 0;
  const show = (translation: Translation | null) => {
    const request = ++asked;
    const variables = { date: visitorToday(), translation };
    today?.setAttribute('aria-busy', 'true');
    fetchLandingVerse(variables).then(
      (verse) => {
        if (stopped || request !== asked) return;
        showVerse(root, verse);
        shown = { verse, variables };
        shownTranslation = verse.translation;
        pressTranslation(root, verse.translation);
        today?.setAttribute('aria-busy', 'false');
      },
      () => {
        if (stopped || request !== asked) return;
        // The verse shown stays: it says which translation it is in.
        pressTranslation(root, shownTranslation);
        today?.setAttribute('aria-busy', 'false');
      },
    );
  };
  for (const option of root.querySelectorAll<HTMLButtonElement>('.today .translation-toggle button')) {
    option.addEventListener('click', () => {
      if (stopped) return;
      const choice = option.textContent === 'WEB' ? 'WEB' : 'KJV';
      chooseTranslation(choice);
      pressTranslation(root, choice);
      show(choice);
    });
  }
  const cookieSettings = root.querySelector<HTMLButtonElement>('.site-footer .footer-nav button');
  if (cookieSettings && consent) {
    cookieSettings.addEventListener('click', () => {
      if (!stopped) consent.showPreferences();
    });
  }
  const choice = readTranslationChoice();
  if (choice) pressTranslation(root, choice);
  show(choice);
  return {
    stop() {
      stopped = true;
      return shown;
    },
  };
}
