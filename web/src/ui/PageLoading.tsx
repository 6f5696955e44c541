/**
 * What a page shows while its code loads: a labelled region that keeps the page's place, with its
 * word for screen readers inside (a live region announces its content, not its label).
 */
export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-label="Loading">
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
