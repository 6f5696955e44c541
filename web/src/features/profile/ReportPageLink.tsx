import { lazy, Suspense, useState } from 'react';
import type { ComponentType } from 'react';
import './report.css';

// Most visitors never report a page: the form's code loads only for those who do.
const ReportPageForm = lazy(() => import('./ReportPageForm').then((m) => ({ default: m.ReportPageForm })));

/**
 * "Report this page" under a public page; opens the report form in place. `Form` is the form to
 * load: the app's, or on the public page's own document one that brings its GraphQL client.
 */
export function ReportPageLink({
  username,
  Form = ReportPageForm,
}: {
  username: string;
  Form?: ComponentType<{ username: string }>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <aside className="report-page" aria-label="Report">
      {open ? (
        <Suspense fallback={<p>Loading the report form…</p>}>
          <Form username={username} />
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
