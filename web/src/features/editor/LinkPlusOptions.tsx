import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { failureWords } from '../../lib/error-words';
import { visitorTimeZone } from '../../lib/time-zone';
import { useFormAction } from '../../lib/use-form-action';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import type { OwnLink, OwnLinks } from './use-own-links';
import './link-plus.css';

/** `2026-12-24T18:00` as the reader's language writes it (a wall-clock time, shown as written). */
function formatLocal(value: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(`${value}:00Z`),
  );
}

/** The line under a link that says when it shows and whether it is highlighted. */
export function linkPlusSummary(link: OwnLink, plus: boolean): string | null {
  const parts: string[] = [];
  if (link.highlighted) parts.push('Highlighted');
  if (link.visibleFrom && link.visibleUntil) {
    parts.push(`Shown ${formatLocal(link.visibleFrom)} – ${formatLocal(link.visibleUntil)}`);
  } else if (link.visibleFrom) {
    parts.push(`Shown from ${formatLocal(link.visibleFrom)}`);
  } else if (link.visibleUntil) {
    parts.push(`Shown until ${formatLocal(link.visibleUntil)}`);
  }
  if (parts.length === 0) return null;
  return plus ? parts.join(' · ') : `${parts.join(' · ')} (kept for when Plus returns; not applied now)`;
}

/**
 * Plus settings of one link: a time window in the page's time zone (the browser's until the
 * member saves one) and the page's one highlight. Free members see none of it.
 */
export function LinkPlusOptions({ link, own }: { link: OwnLink; own: OwnLinks }) {
  const pageZone = own.timeZone;
  const browserZone = visitorTimeZone() ?? 'UTC';
  const zone = pageZone ?? browserZone;
  const [from, setFrom] = useState(link.visibleFrom ?? '');
  const [until, setUntil] = useState(link.visibleUntil ?? '');
  const action = useFormAction();
  const idPrefix = `plus-${link.id}`;

  const save = (work: () => Promise<unknown>, done: string) =>
    action.run(
      async () => {
        await work();
        return done;
      },
      { onFailure: (problem) => failureWords(problem) },
    );

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    await save(
      async () => {
        // The first schedule fixes the page's zone to the one the member sees here.
        if (pageZone === null && (from || until)) await own.setTimeZone(browserZone);
        await own.update(link.id, { visibleFrom: from, visibleUntil: until });
      },
      from || until ? `“${link.title}” has a schedule.` : `“${link.title}” shows at all times.`,
    );
  };

  return (
    <details className="link-plus">
      <summary>Schedule and highlight</summary>
      <FormAlert>{action.alert}</FormAlert>
      <label className="link-plus-highlight">
        <input
          type="checkbox"
          checked={link.highlighted}
          onChange={(event) => {
            const highlighted = event.target.checked;
            void save(
              () => own.update(link.id, { highlighted }),
              highlighted
                ? `“${link.title}” is highlighted on your page.`
                : `“${link.title}” is no longer highlighted.`,
            );
          }}
        />{' '}
        Highlight this link (one per page)
      </label>
      <form className="form link-plus-schedule" noValidate onSubmit={(event) => void submit(event)}>
        <p className="field-hint" id={`${idPrefix}-zone`}>
          Times are in {zone}
          {pageZone !== null && pageZone !== browserZone && (
            <>
              {' '}
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  void save(() => own.setTimeZone(browserZone), `Your page’s times are now in ${browserZone}.`);
                }}
              >
                Use {browserZone}
              </button>
            </>
          )}
        </p>
        <TextField
          id={`${idPrefix}-from`}
          label="Show from"
          type="datetime-local"
          optional
          value={from}
          aria-describedby={`${idPrefix}-zone`}
          onChange={(event) => {
            setFrom(event.target.value);
          }}
        />
        <TextField
          id={`${idPrefix}-until`}
          label="Show until"
          type="datetime-local"
          optional
          value={until}
          aria-describedby={`${idPrefix}-zone`}
          onChange={(event) => {
            setUntil(event.target.value);
          }}
        />
        <div className="link-form-actions">
          <SubmitButton busy={action.busy} busyLabel="Saving…">
            Save schedule
          </SubmitButton>
          {(link.visibleFrom ?? link.visibleUntil) && (
            <button
              type="button"
              className="button"
              onClick={() => {
                setFrom('');
                setUntil('');
                void save(
                  () => own.update(link.id, { visibleFrom: '', visibleUntil: '' }),
                  `“${link.title}” shows at all times.`,
                );
              }}
            >
              Clear schedule
            </button>
          )}
        </div>
      </form>
      <FormStatus>{action.status}</FormStatus>
    </details>
  );
}
