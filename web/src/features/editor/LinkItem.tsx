import { useState } from 'react';
import type { PointerEvent } from 'react';
import { AskFirst } from './AskFirst';
import { LinkForm } from './LinkForm';
import { LinkPlusOptions, linkPlusSummary } from './LinkPlusOptions';
import type { OwnLink, OwnLinks } from './use-own-links';

function GripIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="currentColor">
      {[6, 12, 18].flatMap((y) => [9, 15].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.6" />))}
    </svg>
  );
}

/**
 * One link in the list: its words and address, a handle to drag it (pointer) and buttons to move it
 * (keyboard and pointer alike), edit and hide it; Remove sits apart and asks first.
 */
export function LinkItem({
  link,
  index,
  count,
  own,
  plus,
  dragging,
  onDragStart,
  onMove,
  onToggleHidden,
  onRemove,
  onClearPlus,
  onSave,
}: {
  link: OwnLink;
  own: OwnLinks;
  plus: boolean;
  index: number;
  count: number;
  /** This link is being dragged to a new place. */
  dragging: boolean;
  onDragStart: (link: OwnLink, event: PointerEvent<HTMLElement>) => void;
  onMove: (link: OwnLink, by: -1 | 1) => void;
  onToggleHidden: (link: OwnLink) => void;
  onRemove: (link: OwnLink) => void;
  onClearPlus: (link: OwnLink) => void;
  onSave: (link: OwnLink, title: string, url: string) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState(false);
  const titleId = `link-${link.id}-title`;
  const plusSummary = linkPlusSummary(link, plus);
  if (editing) {
    return (
      <li className="link-item link-item--editing" data-link-id={link.id}>
        <LinkForm
          idPrefix={`edit-${link.id}`}
          initial={link}
          submitLabel="Save link"
          busyLabel="Saving…"
          onSubmit={async (title, url) => {
            await onSave(link, title, url);
            setEditing(false);
          }}
          onCancel={() => {
            setEditing(false);
          }}
        />
      </li>
    );
  }
  const classes = ['link-item', link.hidden && 'link-item--hidden', dragging && 'link-item--dragging'];
  return (
    <li className={classes.filter(Boolean).join(' ')} data-link-id={link.id} aria-labelledby={titleId}>
      <div className="link-item-main">
        {/* Pointer only: the Move buttons do the same from the keyboard. */}
        <span
          className="link-item-handle"
          aria-hidden="true"
          title="Drag to move"
          onPointerDown={(event) => {
            onDragStart(link, event);
          }}
        >
          <GripIcon />
        </span>
        <div className="link-item-text">
          <span id={titleId} className="link-item-title">
            {link.title}
            {link.hidden && <span className="link-item-badge"> (hidden)</span>}
          </span>
          <span className="link-item-url">{link.url}</span>
          {plusSummary && (
            <span className="link-item-plus">
              {plusSummary}
              {/* Without Plus the choices are kept, not applied; the API lets the member drop them. */}
              {!plus && (
                <>
                  {' '}
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Clear schedule and highlight of “${link.title}”`}
                    onClick={() => {
                      onClearPlus(link);
                    }}
                  >
                    Clear
                  </button>
                </>
              )}
            </span>
          )}
        </div>
      </div>
      <div className="link-item-actions">
        <span className="link-item-move">
          <button
            type="button"
            className="button button--small link-move"
            data-move="up"
            aria-label={`Move “${link.title}” up`}
            aria-disabled={index === 0 || undefined}
            onClick={() => {
              if (index > 0) onMove(link, -1);
            }}
          >
            ↑
          </button>
          <button
            type="button"
            className="button button--small link-move"
            data-move="down"
            aria-label={`Move “${link.title}” down`}
            aria-disabled={index === count - 1 || undefined}
            onClick={() => {
              if (index < count - 1) onMove(link, 1);
            }}
          >
            ↓
          </button>
        </span>
        <button
          type="button"
          className="button button--small"
          aria-label={`Edit “${link.title}”`}
          onClick={() => {
            setEditing(true);
          }}
        >
          Edit
        </button>
        <button
          type="button"
          className="button button--small"
          aria-label={`${link.hidden ? 'Show' : 'Hide'} “${link.title}”`}
          onClick={() => {
            onToggleHidden(link);
          }}
        >
          {link.hidden ? 'Show' : 'Hide'}
        </button>
        {/* Set apart from the rest (editor.css), and it asks first. */}
        <AskFirst
          id={`link-${link.id}-remove`}
          label="Remove"
          accessibleLabel={`Remove “${link.title}”`}
          className="button button--small link-remove"
          question={`Remove “${link.title}” for good? Its button leaves your page and its click counts go with it.`}
          confirmLabel="Remove link"
          onConfirm={() => {
            onRemove(link);
          }}
        />
      </div>
      {plus && <LinkPlusOptions link={link} own={own} />}
    </li>
  );
}
