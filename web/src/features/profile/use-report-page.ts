import type { ReportReason } from '../../gql/schema-types';
import { useReportPageMutation } from './report-page.generated';

/** Sends a visitor's report of a page; nothing in the cache changes. */
export function useReportPage() {
  const [reportPageMutation] = useReportPageMutation();
  return async (username: string, reason: ReportReason, note: string): Promise<void> => {
    const trimmed = note.trim();
    await reportPageMutation({ variables: { input: { username, reason, note: trimmed === '' ? null : trimmed } } });
  };
}
