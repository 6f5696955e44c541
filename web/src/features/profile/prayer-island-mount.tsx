import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PrayerIsland } from './PrayerIsland';

/** Puts the prayer form where the server drew the button (`aside`, kept), when a visitor opens it. */
export function mountPrayerForm(aside: HTMLElement, username: string, prompt: string): void {
  createRoot(aside).render(
    <StrictMode>
      <PrayerIsland username={username} prompt={prompt} />
    </StrictMode>,
  );
}
