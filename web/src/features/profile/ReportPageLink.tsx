import { lazy, Suspense, useState } from 'react';
import './report.css';

// Most visitors never report a page: the form's code loads only for those who do.
const ReportPageForm = lazy(() => import('./ReportPageForm').then((m) => ({ default: m.ReportPageForm })));

/** "Report this page" under a public page; opens the report form in place. */
export function ReportPageLink({ username }: { username: string }) {
  const [open, setOpen] = useState(false);
  return (
    <aside className="report-page" aria-label="Report">
      {open ? (
        <Suspense fallback={<p>Loading the report form…</p>}>
          <ReportPageForm username={username} />
        </Suspense>
      ) : (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setOpen(true);
          }}
        >
          Report this page
        </button>
      )}
    </aside>
  );
}
