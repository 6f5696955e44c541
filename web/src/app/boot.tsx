import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Consent } from '../consent/consent';
import { App } from './App';

/** Starts the web app in `container`, with the consent controls the page started. */
export function bootApp(container: HTMLElement, consent: Consent | null): void {
  createRoot(container).render(
    <StrictMode>
      <App consent={consent} />
    </StrictMode>,
  );
}
