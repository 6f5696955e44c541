let takenOver = false;
const waiting = new Set<() => void>();

/** Called by the landing page once the app has taken its markup over: its links are the app's now. */
export function landingTakenOver(): void {
  takenOver = true;
  for (const resolve of waiting) resolve();
  waiting.clear();
}

/** Settles once the app has taken the server's landing page over (at once if it has). */
export function whenLandingTakenOver(): Promise<void> {
  if (takenOver) return Promise.resolve();
  return new Promise((resolve) => waiting.add(resolve));
}
