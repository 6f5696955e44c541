/**
 * Whether the visitor's last action was a key press, rather than a pointer (mouse, finger, pen) or
 * nothing yet (a page opened from an emailed link moves on by itself). The browser's own guess for
 * focus moved by script can draw a ring after a click or a landing; this one cannot. Without React,
 * so that the home page's entry starts it before the app arrives and the app reads the press that
 * followed a link before then.
 */
let keyLast = false;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (keyLast = false), { capture: true, passive: true });
  document.addEventListener('keydown', () => (keyLast = true), { capture: true, passive: true });
}

export function keyPressedLast(): boolean {
  return keyLast;
}
