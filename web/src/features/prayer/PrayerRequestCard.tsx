import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { MAX_PRAYER_REPLY_LENGTH } from '@rules/prayer';
import { failureWords } from '../../lib/error-words';
import { useFormAction } from '../../lib/use-form-action';
import { FormAlert, FormStatus, SubmitButton } from '../../ui/Field';
import type { PrayerRequestItemFragment } from './prayer-requests.generated';
import {
  useDeletePrayerRequestMutation,
  useMarkPrayerRequestPrayedMutation,
  useReplyToPrayerRequestMutation,
  useReportPrayerRequestMutation,
} from './prayer-requests.generated';

const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

function ReplyForm({ id, onSent }: { id: string; onSent: () => void }) {
  const [message, setMessage] = useState('');
  const [reply] = useReplyToPrayerRequestMutation();
  const action = useFormAction();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    await action.run(
      async () => {
        await reply({ variables: { input: { id, message } } });
        setMessage('');
        onSent();
        return 'Your reply was sent.';
      },
      { onFailure: (problem) => failureWords(problem) },
    );
  };
  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      <FormAlert>{action.alert}</FormAlert>
      <div className="field">
        <label htmlFor={`reply-${id}`}>Your reply (sent by email; you will not see their address)</label>
        <textarea
          id={`reply-${id}`}
          rows={3}
          maxLength={MAX_PRAYER_REPLY_LENGTH}
          value={message}
          onChange={(event) => {
            setMessage(event.target.value);
          }}
        />
      </div>
      <FormStatus>{action.status}</FormStatus>
      <SubmitButton busy={action.busy} busyLabel="Sending…">
        Send reply
      </SubmitButton>
    </form>
  );
}

/** One request in the inbox, with what the member can do about it. */
export function PrayerRequestCard({ request, onGone }: { request: PrayerRequestItemFragment; onGone: () => void }) {
  const [markPrayed] = useMarkPrayerRequestPrayedMutation();
  const [remove] = useDeletePrayerRequestMutation();
  const [report] = useReportPrayerRequestMutation();
  const [replying, setReplying] = useState(false);
  const [replied, setReplied] = useState(false);
  return (
    <li className="prayer-request-card" data-prayer-id={request.id}>
      <p className="prayer-request-meta">
        {request.firstName ?? 'Someone'} · <time dateTime={request.createdAt}>{when(request.createdAt)}</time>
        {!request.read && <strong> · New</strong>}
        {request.keepPrivate && <span> · Asked to keep it private</span>}
      </p>
      <p className="prayer-request-body">{request.body}</p>
      {request.prayedAt && <p className="prayer-request-prayed">Prayed for</p>}
      {replied && <p role="status">Your reply was sent.</p>}
      <div className="prayer-request-actions">
        <button
          type="button"
          className="button"
          onClick={() => void markPrayed({ variables: { id: request.id, prayed: !request.prayedAt } })}
        >
          {request.prayedAt ? 'Not prayed for yet' : 'Mark as prayed for'}
        </button>
        {request.canReply && (
          <button
            type="button"
            className="link-button"
            aria-expanded={replying}
            onClick={() => {
              setReplying(!replying);
            }}
          >
            Reply
          </button>
        )}
        <button
          type="button"
          className="link-button"
          onClick={() => void report({ variables: { id: request.id } }).then(onGone)}
        >
          Report
        </button>
        <button
          type="button"
          className="link-button"
          onClick={() => void remove({ variables: { id: request.id } }).then(onGone)}
        >
          Delete
        </button>
      </div>
      {replying && (
        <ReplyForm
          id={request.id}
          onSent={() => {
            setReplying(false);
            setReplied(true);
          }}
        />
      )}
    </li>
  );
}
