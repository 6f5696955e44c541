import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { ReportIsland } from './ReportIsland';

/**
 * Puts the report form where the server drew "Report this page" (`aside`, kept: its look and
 * landmark are the page's), with the GraphQL client it needs; loaded when a visitor asks for it.
 */
export function mountReportForm(aside: HTMLElement, username: string): void {
  createRoot(aside).render(
    <StrictMode>
      <Suspense fallback={<p>Loading the report form…</p>}>
        <ReportIsland username={username} />
      </Suspense>
    </StrictMode>,
  );
}
