import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { MAX_PRAYER_FIRST_NAME_LENGTH, MAX_PRAYER_REQUEST_LENGTH } from '@rules/prayer';
import { failureWords } from '../../lib/error-words';
import { useFormAction } from '../../lib/use-form-action';
import { FormAlert, FormStatus, SubmitButton } from '../../ui/Field';
import { useSendPrayerRequest } from './use-send-prayer-request';
import type { PrayerRequestFields } from './use-send-prayer-request';

/** The visitor's prayer request: the words, and if they like a first name and an address for a reply. */
export function PrayerRequestForm({ username, prompt }: { username: string; prompt: string }) {
  const [fields, setFields] = useState<PrayerRequestFields>({
    body: '',
    firstName: '',
    replyTo: '',
    keepPrivate: false,
    website: '',
  });
  const [sent, setSent] = useState(false);
  const [bodyError, setBodyError] = useState<string | null>(null);
  const send = useSendPrayerRequest();
  const action = useFormAction();
  const set = (change: Partial<PrayerRequestFields>) => {
    setFields((current) => ({ ...current, ...change }));
  };
  const length = Array.from(fields.body).length;

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    if (fields.body.trim() === '') {
      setBodyError('Please write what you would like prayer for.');
      return;
    }
    if (length > MAX_PRAYER_REQUEST_LENGTH) {
      setBodyError(`Please keep it to ${String(MAX_PRAYER_REQUEST_LENGTH)} characters.`);
      return;
    }
    setBodyError(null);
    await action.run(
      async () => {
        await send(username, fields);
        setSent(true);
      },
      { onFailure: (problem) => failureWords(problem) },
    );
  };

  if (sent) {
    return <p role="status">Thank you. Your prayer request was sent.</p>;
  }
  return (
    <section aria-labelledby="prayer-title">
      <h2 id="prayer-title">Send a prayer request</h2>
      <p>{prompt}</p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormAlert>{action.alert}</FormAlert>
        <div className="field">
          <label htmlFor="prayer-body">Your prayer request</label>
          <textarea
            id="prayer-body"
            rows={5}
            value={fields.body}
            aria-invalid={bodyError ? true : undefined}
            aria-describedby={bodyError ? 'prayer-body-error prayer-body-count' : 'prayer-body-count'}
            onChange={(event) => {
              set({ body: event.target.value });
            }}
          />
          <p id="prayer-body-count" className="field-hint">
            {length} of {MAX_PRAYER_REQUEST_LENGTH} characters
          </p>
          {bodyError && (
            <p id="prayer-body-error" className="field-error">
              {bodyError}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="prayer-first-name">
            Your first name <span className="field-optional">(optional)</span>
          </label>
          <input
            id="prayer-first-name"
            autoComplete="given-name"
            maxLength={MAX_PRAYER_FIRST_NAME_LENGTH}
            value={fields.firstName}
            onChange={(event) => {
              set({ firstName: event.target.value });
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="prayer-reply-to">
            Your email, for a reply <span className="field-optional">(optional; it is never shown to anyone)</span>
          </label>
          <input
            id="prayer-reply-to"
            type="email"
            autoComplete="email"
            value={fields.replyTo}
            onChange={(event) => {
              set({ replyTo: event.target.value });
            }}
          />
        </div>
        {/* People never see this field; a form robot fills it, and its request is quietly dropped. */}
        <div className="visually-hidden" aria-hidden="true">
          <label htmlFor="prayer-website">Website</label>
          <input
            id="prayer-website"
            tabIndex={-1}
            autoComplete="off"
            value={fields.website}
            onChange={(event) => {
              set({ website: event.target.value });
            }}
          />
        </div>
        <div className="field field-check">
          <input
            id="prayer-private"
            type="checkbox"
            checked={fields.keepPrivate}
            onChange={(event) => {
              set({ keepPrivate: event.target.checked });
            }}
          />
          <label htmlFor="prayer-private">Keep this private to the owner of this page</label>
        </div>
        <FormStatus>{action.status}</FormStatus>
        <SubmitButton busy={action.busy} busyLabel="Sending…">
          Send prayer request
        </SubmitButton>
      </form>
    </section>
  );
}
