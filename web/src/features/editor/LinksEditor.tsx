import { useRef } from 'react';
import { useFormAction } from '../../lib/use-form-action';
import { FormAlert, FormStatus } from '../../ui/Field';
import { useAuth } from '../../session/AuthProvider';
import { LinkForm } from './LinkForm';
import { LinkItem } from './LinkItem';
import type { OwnLink, OwnLinks } from './use-own-links';
import { useLinkDrag } from './use-link-drag';

/** As the server counts them (server/src/links/link-rules.ts). */
const MAX_LINKS = 50;

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

  const drag = useLinkDrag(list, links, (link, ids) => {
    change(() => own.reorder(ids), `Moved “${link.title}” to place ${ids.indexOf(link.id) + 1} of ${ids.length}.`);
  });

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
        Buttons on your page, in this order, in your button style. Drag a link by its handle, or use its arrows, to move
        it. Each change is saved at once. Visitors’ clicks are counted; nothing about them is kept.
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
          {(drag.shown ?? links).map((link, index) => (
            <LinkItem
              key={link.id}
              link={link}
              index={index}
              count={links.length}
              own={own}
              plus={plus}
              dragging={drag.draggingId === link.id}
              onDragStart={drag.start}
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
