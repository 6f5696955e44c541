import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import type { ApiFailure } from '../../lib/errors';
import { useFormAction } from '../../lib/useFormAction';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { useAuth } from '../../session/AuthProvider';
import { LinkPlusOptions, linkPlusSummary } from './LinkPlusOptions';
import type { OwnLink, OwnLinks } from './useOwnLinks';

/** As the server counts them (server/src/links/link-rules.ts). */
const MAX_LINKS = 50;
const MAX_TITLE_LENGTH = 80;
const MAX_URL_LENGTH = 2048;

interface FieldErrors {
  title?: string;
  url?: string;
}

/** The fields a refusal names (`input.title` reads `title`), for the form's inputs. */
function fieldErrors(problem: ApiFailure): FieldErrors {
  if (problem.field === 'title') return { title: problem.message };
  if (problem.field === 'url') return { url: problem.message };
  return {};
}

/** Title and address, checked as the server will, before anything is sent. */
function checkLink(title: string, url: string): FieldErrors {
  return {
    title: title.trim() === '' ? 'Give the link a title.' : undefined,
    url: url.trim() === '' ? 'Enter the address the link goes to.' : undefined,
  };
}

function LinkForm({
  idPrefix,
  initial,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  initial: { title: string; url: string };
  submitLabel: string;
  busyLabel: string;
  onSubmit: (title: string, url: string) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [title, setTitle] = useState(initial.title);
  const [url, setUrl] = useState(initial.url);
  const [errors, setErrors] = useState<FieldErrors>({});
  const action = useFormAction();
  const form = useRef<HTMLFormElement>(null);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const found = checkLink(title, url);
    setErrors(found);
    if (found.title || found.url) {
      form.current?.querySelector<HTMLInputElement>(found.title ? `#${idPrefix}-title` : `#${idPrefix}-url`)?.focus();
      return;
    }
    await action.run(
      async () => {
        await onSubmit(title, url);
        if (!onCancel) {
          setTitle('');
          setUrl('');
        }
      },
      {
        onFailure: (problem) => {
          const atFault = fieldErrors(problem);
          setErrors(atFault);
          if (!atFault.title && !atFault.url) return problem.message;
          form.current?.querySelector<HTMLInputElement>(`#${idPrefix}-${atFault.title ? 'title' : 'url'}`)?.focus();
          return null;
        },
      },
    );
  };

  return (
    <form ref={form} className="form link-form" noValidate onSubmit={(event) => void submit(event)}>
      <FormAlert>{action.alert}</FormAlert>
      <TextField
        id={`${idPrefix}-title`}
        label="Title"
        hint="The words on the button."
        maxLength={MAX_TITLE_LENGTH}
        value={title}
        onChange={(event) => {
          setTitle(event.target.value);
          if (errors.title) setErrors((found) => ({ ...found, title: undefined }));
        }}
        error={errors.title}
      />
      <TextField
        id={`${idPrefix}-url`}
        label="Address"
        hint="A web address, or mailto: for email and tel: for a phone number."
        type="url"
        inputMode="url"
        autoComplete="url"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={MAX_URL_LENGTH}
        value={url}
        onChange={(event) => {
          setUrl(event.target.value);
          if (errors.url) setErrors((found) => ({ ...found, url: undefined }));
        }}
        error={errors.url}
      />
      <div className="link-form-actions">
        <SubmitButton busy={action.busy} busyLabel={busyLabel}>
          {submitLabel}
        </SubmitButton>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** One link in the list: its words and address, and buttons to edit, hide, move and remove it. */
function LinkItem({
  link,
  index,
  count,
  own,
  plus,
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
  return (
    <li
      className={link.hidden ? 'link-item link-item--hidden' : 'link-item'}
      data-link-id={link.id}
      aria-labelledby={titleId}
    >
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
      <div className="link-item-actions">
        <button
          type="button"
          className="button button--small"
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
          className="button button--small"
          data-move="down"
          aria-label={`Move “${link.title}” down`}
          aria-disabled={index === count - 1 || undefined}
          onClick={() => {
            if (index < count - 1) onMove(link, 1);
          }}
        >
          ↓
        </button>
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
        <button
          type="button"
          className="button button--small"
          aria-label={`Remove “${link.title}”`}
          onClick={() => {
            onRemove(link);
          }}
        >
          Remove
        </button>
      </div>
      {plus && <LinkPlusOptions link={link} own={own} />}
    </li>
  );
}

/** The "Links" part of the page editor: each change is saved at once, and the preview follows. */
export function LinksEditor({ own }: { own: OwnLinks }) {
  const { stripe: plus } = useAuth();
  const section = useRef<HTMLElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const action = useFormAction();
  const links = own.links;

  const change = (work: () => Promise<unknown>, done: string) =>
    void action.run(
      async () => {
        await work();
        return done;
      },
      { onFailure: (problem) => problem.message },
    );

  const move = (link: OwnLink, by: -1 | 1) => {
    if (!links) return;
    const ids = links.map((each) => each.id);
    const from = ids.indexOf(link.id);
    ids.splice(from, 1);
    ids.splice(from + by, 0, link.id);
    change(
      async () => {
        await own.reorder(ids);
        // Keep the keyboard on the moved link's button, wherever the link now is.
        const direction = by < 0 ? 'up' : 'down';
        list.current
          ?.querySelector<HTMLButtonElement>(`[data-link-id="${link.id}"] [data-move="${direction}"]`)
          ?.focus();
      },
      `Moved “${link.title}” to place ${from + by + 1} of ${ids.length}.`,
    );
  };

  return (
    <section ref={section} className="links-editor" aria-labelledby="links-title">
      <h2 id="links-title">Links</h2>
      <p className="links-editor-lead">
        Buttons on your page, in this order, in your button style. Visitors’ clicks are counted; nothing about them is
        kept.
      </p>
      <FormAlert>{action.alert}</FormAlert>
      <FormStatus>{action.status}</FormStatus>
      {links === null ? (
        own.error ? (
          <div role="alert">
            <p>We couldn’t load your links.</p>
            <button type="button" className="button" onClick={own.refetch}>
              Try again
            </button>
          </div>
        ) : (
          <p className="links-editor-empty">Loading your links…</p>
        )
      ) : links.length === 0 ? (
        <p className="links-editor-empty">No links yet. Add your church, your podcast or a way to reach you.</p>
      ) : (
        <ol ref={list} className="link-list" aria-label="Your links">
          {links.map((link, index) => (
            <LinkItem
              key={link.id}
              link={link}
              index={index}
              count={links.length}
              own={own}
              plus={plus}
              onMove={move}
              onToggleHidden={(each) => {
                change(
                  () => own.update(each.id, { hidden: !each.hidden }),
                  each.hidden ? `“${each.title}” is on your page again.` : `“${each.title}” is hidden from visitors.`,
                );
              }}
              onRemove={(each) => {
                change(async () => {
                  await own.remove(each.id);
                  section.current?.querySelector<HTMLInputElement>('#new-link-title')?.focus();
                }, `Removed “${each.title}”.`);
              }}
              onClearPlus={(each) => {
                change(
                  () => own.update(each.id, { visibleFrom: '', visibleUntil: '', highlighted: false }),
                  `“${each.title}” has no schedule or highlight kept.`,
                );
              }}
              onSave={(each, title, url) => own.update(each.id, { title, url })}
            />
          ))}
        </ol>
      )}
      {links !== null &&
        (links.length < MAX_LINKS ? (
          <>
            <h3 className="links-editor-add">Add a link</h3>
            <LinkForm
              idPrefix="new-link"
              initial={{ title: '', url: '' }}
              submitLabel="Add link"
              busyLabel="Adding…"
              onSubmit={(title, url) => own.add(title, url)}
            />
          </>
        ) : (
          <p className="links-editor-empty">
            Your page holds the most links it can ({MAX_LINKS}). Remove one to add another.
          </p>
        ))}
    </section>
  );
}
