import { useEffect, useRef, useState } from 'react';

/**
 * A button that deletes something, asking first in place: the question says what goes, the focus
 * moves to "Keep it" (the safe answer), and keeping it gives the focus back to the button.
 * A link's Remove and the photo's Remove ask the same way.
 */
export function AskFirst({
  id,
  label,
  accessibleLabel,
  className,
  busy = false,
  question,
  confirmLabel,
  onConfirm,
}: {
  /** Names the question, for the group that holds it. */
  id: string;
  label: string;
  /** The button's name when its words alone would be unclear (which link). */
  accessibleLabel?: string;
  className: string;
  /** The deletion is under way: the button says so and does nothing more. */
  busy?: boolean;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const questionId = `${id}-question`;
  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        ref={opener}
        type="button"
        className={className}
        aria-label={accessibleLabel}
        aria-disabled={busy || undefined}
        onClick={() => {
          if (!busy) setAsking(true);
        }}
      >
        {label}
      </button>
    );
  }
  return (
    <div className="ask-first" role="group" aria-labelledby={questionId}>
      <p id={questionId}>{question}</p>
      <div className="link-form-actions">
        <button
          type="button"
          className="button button--small button--remove"
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button
          ref={keep}
          type="button"
          className="button button--small"
          onClick={() => {
            setAsking(false);
            requestAnimationFrame(() => opener.current?.focus());
          }}
        >
          Keep it
        </button>
      </div>
    </div>
  );
}
