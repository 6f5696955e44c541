/** What a page shows while its code loads: an empty, labelled region that keeps the page's place. */
export function PageLoading() {
  return <div className="page-loading" role="status" aria-label="Loading" />;
}
