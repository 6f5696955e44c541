import type { Consent } from '../../consent/consent';
import type { Translation } from '../../gql/schema-types';
import { chooseTranslation, readTranslationChoice } from '../../lib/translation-choice';
import { visitorTimeZone } from '../../lib/time-zone';
import { canUseShareSheet, shareLink } from '../../ui/profile/share';
import type { RenderedPageState } from './rendered-page';
import { fetchProfileVerse } from './verse-query';
import type { ProfileVerse } from './verse-query';

/** How long "Link copied" stays, as the app's ShareButton keeps it. */
const CONFIRMATION_MS = 4000;

/** Today in the visitor's own calendar, as the verse of the day counts it. */
function localDay(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${String(now.getFullYear())}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function pageUrl(username: string): string {
  return `${window.location.origin}/@${encodeURIComponent(username)}`;
}

function pageTitle(): string {
  return document.title;
}

/** "Share" or "Copy link": the server cannot know whether this browser has a share sheet. */
function startShareButton(root: HTMLElement, username: string): void {
  const button = root.querySelector<HTMLButtonElement>('.profile-actions .share button');
  const status = root.querySelector<HTMLElement>('.profile-actions .share .share-status');
  if (!button || !status) return;
  const label = [...button.childNodes].find((node) => node.nodeType === Node.TEXT_NODE);
  if (label && canUseShareSheet()) label.textContent = 'Share';
  let timer: ReturnType<typeof setTimeout> | undefined;
  button.addEventListener('click', () => {
    const url = pageUrl(username);
    void shareLink({ url, title: pageTitle() }).then((result) => {
      clearTimeout(timer);
      status.replaceChildren();
      if (result === 'copied') {
        status.textContent = 'Link copied';
        timer = setTimeout(() => {
          status.textContent = '';
        }, CONFIRMATION_MS);
      } else if (result === 'failed') {
        const shown = document.createElement('span');
        shown.className = 'share-url';
        shown.textContent = url;
        status.append('Copy this link: ', shown);
      }
    });
  });
}

/** The verse card's words, reference and translation, as VerseCard draws them. */
function showVerse(root: HTMLElement, verse: ProfileVerse): void {
  const text = root.querySelector('.profile-verse .verse-text p');
  const ref = root.querySelector('.profile-verse .verse-ref');
  if (!text || !ref) return;
  text.textContent = verse.text;
  const translation = document.createElement('span');
  translation.className = 'translation';
  translation.textContent = verse.translation;
  ref.replaceChildren(`${verse.ref} `, translation);
}

function pressTranslation(root: HTMLElement, translation: Translation): void {
  for (const option of root.querySelectorAll<HTMLButtonElement>('.profile-verse .translation-toggle button')) {
    option.setAttribute('aria-pressed', String(option.textContent === translation));
  }
}

/**
 * The verse under the toggle: the server drew it for today in UTC, in the member's translation,
 * and its inline script has already put the visitor's own day's verse in its place before the first
 * frame (`page.day` says which day is shown). A day it had no verse for, and the translation kept in
 * this browser, are asked for here and replace it in place (the card keeps its box, so only its
 * words change). The QR dialog's image follows the translation shown.
 */
function startVerse(root: HTMLElement, page: RenderedPageState, shown: { translation: Translation }): void {
  let asked = 0;
  const show = (translation: Translation) => {
    const request = ++asked;
    fetchProfileVerse({ username: page.username, timeZone: visitorTimeZone(), translation }).then(
      (verse) => {
        if (request !== asked || !verse) return;
        showVerse(root, verse);
        shown.translation = verse.translation;
      },
      () => {
        // The verse shown stays: it says which translation it is in.
        if (request === asked) pressTranslation(root, shown.translation);
      },
    );
  };
  for (const option of root.querySelectorAll<HTMLButtonElement>('.profile-verse .translation-toggle button')) {
    option.addEventListener('click', () => {
      const choice = option.textContent === 'WEB' ? 'WEB' : 'KJV';
      chooseTranslation(choice);
      pressTranslation(root, choice);
      if (choice !== shown.translation) show(choice);
    });
  }
  const wanted = readTranslationChoice() ?? page.translation;
  if (wanted !== page.translation) pressTranslation(root, wanted);
  if (wanted !== page.translation || (!page.versePinned && localDay() !== page.day)) show(wanted);
}

/** Reporting needs the GraphQL client: it loads with the form, when a visitor asks for it. */
function startReport(root: HTMLElement, username: string): void {
  const button = root.querySelector<HTMLButtonElement>('.report-page button');
  const aside = button?.closest<HTMLElement>('.report-page');
  if (!button || !aside) return;
  button.addEventListener('click', () => {
    button.disabled = true;
    void import('./report-island-mount').then(({ mountReportForm }) => {
      mountReportForm(aside, username);
    });
  });
}

/** The prayer form, its GraphQL client and the proof-of-work solver load only when a visitor opens it. */
function startPrayer(root: HTMLElement, username: string): void {
  const aside = root.querySelector<HTMLElement>('.prayer-request');
  const button = aside?.querySelector<HTMLButtonElement>('button');
  if (!aside || !button) return;
  const prompt = aside.querySelector('.prayer-request-prompt')?.textContent ?? '';
  button.addEventListener('click', () => {
    button.disabled = true;
    void import('./prayer-island-mount').then(({ mountPrayerForm }) => {
      mountPrayerForm(aside, username, prompt);
    });
  });
}

/** The QR code and the verse image load only when a visitor asks for them. */
function startShareDialog(root: HTMLElement, username: string, shown: { translation: Translation }): void {
  const button = root.querySelector<HTMLButtonElement>('.profile-actions button[aria-haspopup="dialog"]');
  if (!button) return;
  button.addEventListener('click', () => {
    void import('./share-dialog-mount').then(({ openShareDialog }) => {
      openShareDialog({
        username,
        url: pageUrl(username),
        title: pageTitle(),
        translation: shown.translation,
        opener: button,
      });
    });
  });
}

/**
 * Brings the server-rendered page to life without React: the links are plain anchors already, and
 * each interactive piece (share or copy, the QR dialog, reporting, the translation, the cookie
 * settings) listens on its own markup, loading more code only when it is used (docs/quality.md P7).
 */
export function startIslands(root: HTMLElement, page: RenderedPageState, consent: Consent | null): void {
  const shown = { translation: page.translation };
  startShareButton(root, page.username);
  startVerse(root, page, shown);
  startShareDialog(root, page.username, shown);
  startReport(root, page.username);
  startPrayer(root, page.username);
  const cookieSettings = root.querySelector<HTMLButtonElement>('.profile-footer-links button');
  if (cookieSettings && consent) {
    cookieSettings.addEventListener('click', consent.showPreferences);
  }
}
