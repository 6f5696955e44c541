import { useState } from 'react';
import { Link } from 'react-router';
import type { Translation } from '../../gql/schema-types';
import { describeError } from '../../lib/errors';
import { useAuth } from '../../session/AuthProvider';
import { SAVE_NEEDS_ACCOUNT } from './save-notice';
import { useSaveVerseButtonSaveMutation, useSaveVerseButtonUndoMutation } from './save-verse-button.generated';

export { SAVE_NEEDS_ACCOUNT };

type Saving =
  | { step: 'idle' }
  | { step: 'saving' }
  | { step: 'saved'; verseId: string; ref: string }
  | { step: 'undoing'; verseId: string; ref: string }
  | { step: 'undone'; ref: string }
  | { step: 'failed'; message: string };

/**
 * "Save this verse": one tap saves it for a member, with Undo beside the confirmation; a visitor
 * signed out is led to sign up, with the reason written there.
 */
export function SaveVerseButton({ verseRef, translation }: { verseRef: string; translation: Translation }) {
  const { signedIn } = useAuth();
  const [state, setState] = useState<Saving>({ step: 'idle' });
  // The saved list's page reads the list again whenever it opens (cache-and-network).
  const [saveMutation] = useSaveVerseButtonSaveMutation();
  const [undoMutation] = useSaveVerseButtonUndoMutation();

  if (!signedIn) {
    return (
      <Link to="/signup" state={{ notice: SAVE_NEEDS_ACCOUNT }}>
        Sign up to save this verse
      </Link>
    );
  }

  const save = () => {
    setState({ step: 'saving' });
    saveMutation({ variables: { ref: verseRef, translation } }).then(
      ({ data }) => {
        const verse = data?.saveVerse.verse;
        setState(verse ? { step: 'saved', verseId: verse.id, ref: verse.ref } : { step: 'idle' });
      },
      (error: unknown) => {
        setState({ step: 'failed', message: describeError(error).message });
      },
    );
  };
  const undo = (verseId: string, ref: string) => {
    setState({ step: 'undoing', verseId, ref });
    undoMutation({ variables: { verseId } }).then(
      () => {
        setState({ step: 'undone', ref });
      },
      (error: unknown) => {
        setState({ step: 'failed', message: describeError(error).message });
      },
    );
  };

  const saved = state.step === 'saved' || state.step === 'undoing' ? state : null;
  return (
    <span className="save-verse">
      {saved ? (
        <button
          type="button"
          className="link-button"
          aria-disabled={state.step === 'undoing' || undefined}
          onClick={() => {
            if (state.step === 'saved') undo(saved.verseId, saved.ref);
          }}
        >
          Undo<span className="visually-hidden"> saving {saved.ref}</span>
        </button>
      ) : (
        <button
          type="button"
          className="link-button"
          aria-disabled={state.step === 'saving' || undefined}
          onClick={() => {
            if (state.step !== 'saving') save();
          }}
        >
          Save this verse
        </button>
      )}
      <span role="status" className="save-verse-status">
        {saved && (
          <>
            Saved to <Link to="/saved">your verses</Link>.
          </>
        )}
        {state.step === 'undone' && `${state.ref} is no longer saved.`}
        {state.step === 'failed' && state.message}
      </span>
    </span>
  );
}
