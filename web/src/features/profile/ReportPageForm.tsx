import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { failureWords } from '../../lib/error-words';
import { useFormAction } from '../../lib/use-form-action';
import type { ReportReason } from '../../gql/schema-types';
import { FormAlert, FormStatus, SubmitButton } from '../../ui/Field';
import { useReportPage } from './use-report-page';

/** As the server counts it (server/src/moderation/report.types.ts). */
const MAX_NOTE_LENGTH = 500;

const REASONS: { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam or misleading links' },
  { value: 'scam', label: 'Fraud, phishing or a scam' },
  { value: 'hate', label: 'Hate against a group of people' },
  { value: 'harassment', label: 'Harassment or bullying' },
  { value: 'sexual', label: 'Sexual content' },
  { value: 'violence', label: 'Violence or threats' },
  { value: 'impersonation', label: 'Pretends to be someone else' },
  { value: 'other', label: 'Something else' },
];

/** The report form, loaded when a visitor asks for it: a reason, an optional note, no account needed. */
export function ReportPageForm({ username }: { username: string }) {
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const report = useReportPage();
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    if (reason === '') {
      setReasonError('Choose why you are reporting this page.');
      return;
    }
    setReasonError(null);
    await action.run(
      async () => {
        await report(username, reason, note);
        setSent(true);
      },
      { onFailure: (problem) => failureWords(problem) },
    );
  };

  if (sent) {
    return <p role="status">Thank you. Your report was sent to the Lampstand team, who will look at this page.</p>;
  }
  return (
    <section aria-labelledby="report-title">
      <h2 id="report-title">Report this page</h2>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{action.alert}</FormAlert>
        <div className="field">
          <label htmlFor="report-reason">Why are you reporting it?</label>
          <select
            id="report-reason"
            value={reason}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? 'report-reason-error' : undefined}
            onChange={(event) => {
              setReason(event.target.value as ReportReason | '');
            }}
          >
            <option value="">Choose a reason</option>
            {REASONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {reasonError && (
            <p id="report-reason-error" className="field-error">
              {reasonError}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="report-note">
            Anything else we should know <span className="field-optional">(optional)</span>
          </label>
          <textarea
            id="report-note"
            rows={3}
            maxLength={MAX_NOTE_LENGTH}
            value={note}
            onChange={(event) => {
              setNote(event.target.value);
            }}
          />
        </div>
        <FormStatus>{action.status}</FormStatus>
        <SubmitButton busy={action.busy} busyLabel="Sending…">
          Send report
        </SubmitButton>
      </form>
    </section>
  );
}
