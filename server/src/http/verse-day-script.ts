import { createHash } from 'node:crypto';

/**
 * The one inline script of a member's rendered page (`/@username`), in its head right after
 * `#lampstand-page`. The server knows no visitor's time zone and draws the verse of today in UTC;
 * it also puts the verses of the day before and the day after in `#lampstand-page` (`days`), and
 * this picks the visitor's own day among them. It runs before the parser reaches the page's body and
 * watches the parser's insertions: as soon as the verse card is whole (its translation is its last
 * part) it changes the words and reference, in the microtask after that insertion, before the
 * browser can draw a frame. So a visitor west or east of UTC sees their day's verse from the first
 * frame: no swap after load, no layout shift, no request. (Run at the end of the body instead, it
 * waited for the style sheets, and the browser drew UTC's verse meanwhile.) It edits the card as the
 * islands' `showVerse` does (web/src/features/profile/islands.ts) and writes the day it shows back
 * into `#lampstand-page`, so the islands ask for nothing more. Without JavaScript, or on any
 * surprise, the page keeps UTC's verse. It holds no `<`, so no markup in it can end its element.
 */
export const VERSE_DAY_SCRIPT = `(function () {
  try {
    var tag = document.getElementById('lampstand-page');
    var page = JSON.parse(tag.textContent);
    var now = new Date();
    var two = function (n) { return ('0' + n).slice(-2); };
    var day = now.getFullYear() + '-' + two(now.getMonth() + 1) + '-' + two(now.getDate());
    var verse = page.days && page.days[day];
    if (day === page.day || !verse) return;
    var swap = function () {
      var shown = document.querySelector('#root .profile-verse .verse-ref .translation');
      var text = document.querySelector('#root .profile-verse .verse-text p');
      if (!shown || !text) return false;
      var translation = document.createElement('span');
      translation.className = 'translation';
      translation.textContent = verse.translation;
      text.textContent = verse.text;
      shown.parentNode.replaceChildren(verse.ref + ' ', translation);
      page.day = day;
      tag.textContent = JSON.stringify(page);
      return true;
    };
    var watch = new MutationObserver(function () {
      if (swap()) watch.disconnect();
    });
    watch.observe(document, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', function () {
      watch.disconnect();
    });
  } catch (error) {}
})();`;

/** The script's CSP source: allowed by its hash on the pages that carry it, not by 'unsafe-inline'. */
export const VERSE_DAY_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(VERSE_DAY_SCRIPT).digest('base64')}'`;

/** A page's Content-Security-Policy with the script allowed beside the app's own files. */
export function allowingVerseDayScript(policy: string): string {
  return policy.replace(/(^|;)(\s*)script-src /, `$1$2script-src ${VERSE_DAY_SCRIPT_SOURCE} `);
}
