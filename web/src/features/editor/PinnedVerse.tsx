import { useRef, useState } from 'react';
import type { ReactNode, SubmitEvent } from 'react';
import { Link } from 'react-router';
import { useFormAction } from '../../lib/use-form-action';
import type { VerseCard_VerseFragment } from '../../ui/verse/verse-card.generated';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { usePinVerse } from './use-pin-verse';

/** What the page does with its verse now, in a sentence. */
function currentNote(pinned: boolean, plus: boolean, verse: VerseCard_VerseFragment | null): ReactNode {
  if (pinned && !plus) {
    return 'Your pinned verse is kept for when Plus is back; until then your page follows the verse of the day.';
  }
  if (pinned) {
    return verse ? (
      <>
        Your page keeps <strong>{verse.ref}</strong> instead of the verse of the day.
      </>
    ) : (
      'Your page keeps a verse of your choosing.'
    );
  }
  return 'Your page follows the verse of the day. You can keep a verse you love on it instead.';
}

/**
 * "Your verse": pins a verse to the page (Plus) or lets it follow the verse of the day again.
 * Free members see it marked Plus with the way to upgrade; the server decides all the same.
 */
export function PinnedVerse({
  pinned,
  plus,
  verse,
}: {
  pinned: boolean;
  plus: boolean;
  verse: VerseCard_VerseFragment | null;
}) {
  const { pin, unpin } = usePinVerse();
  const input = useRef<HTMLInputElement>(null);
  const [reference, setReference] = useState('');
  const [error, setError] = useState<ReactNode>(null);
  const action = useFormAction();

  const run = async (name: 'pin' | 'unpin') => {
    if (action.busy) return;
    setError(null);
    action.setAlert(null);
    action.setStatus(null);
    if (name === 'pin' && reference.trim() === '') {
      setError('Enter a reference, such as John 3:16.');
      input.current?.focus();
      return;
    }
    await action.run(
      async () => {
        if (name === 'unpin') {
          await unpin();
          return 'Your page follows the verse of the day again.';
        }
        const shown = await pin(reference.trim());
        setReference('');
        return `Your page now keeps ${shown.ref}.`;
      },
      {
        name,
        fields: { ref: { setError, input } },
        onFailure: (problem) => {
          if (problem.code === 'PLUS_REQUIRED') {
            setError(
              <>
                {problem.message} <Link to="/plus">Upgrade to Plus</Link>
              </>,
            );
            input.current?.focus();
            return null;
          }
          return problem.message;
        },
      },
    );
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    void run('pin');
  };

  return (
    <section className="pinned-verse" aria-labelledby="pinned-verse-title">
      <h2 id="pinned-verse-title">
        Your verse{' '}
        <span className="plus-tag">
          Plus<span className="visually-hidden"> only</span>
        </span>
      </h2>
      <p className="choices-note">{currentNote(pinned, plus, verse)}</p>
      {!plus && (
        <p className="choices-note">
          Pinning a verse comes with Plus. <Link to="/plus">Upgrade to Plus</Link>
        </p>
      )}
      <form className="form" noValidate onSubmit={submit}>
        <FormAlert>{action.alert}</FormAlert>
        <TextField
          ref={input}
          id="editor-verse"
          label="Verse to keep on your page"
          hint="A reference such as John 3:16 or Ps 23:1 (King James Version)."
          autoComplete="off"
          spellCheck={false}
          maxLength={100}
          value={reference}
          onChange={(event) => {
            setReference(event.target.value);
          }}
          error={error}
        />
        <FormStatus>{action.status}</FormStatus>
        <div className="form-actions">
          <SubmitButton busy={action.pending === 'pin'} busyLabel="Pinning…">
            Pin verse
          </SubmitButton>
          {pinned && (
            <button
              type="button"
              className="button button--quiet"
              aria-disabled={action.busy || undefined}
              onClick={() => void run('unpin')}
            >
              {action.pending === 'unpin' ? 'Unpinning…' : 'Unpin'}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
