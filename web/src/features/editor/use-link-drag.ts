import { useState } from 'react';
import type { PointerEvent, RefObject } from 'react';
import type { OwnLink } from './use-own-links';

interface Drag {
  id: string;
  /** The order shown while dragging: the dragged link where the pointer is now. */
  order: string[];
}

/** The place for the dragged link: after every other link whose middle the pointer at `y` has passed. */
function placeAt(list: HTMLElement, draggedId: string, y: number): number {
  const others = Array.from(list.querySelectorAll<HTMLElement>(':scope > [data-link-id]')).filter(
    (item) => item.dataset.linkId !== draggedId,
  );
  return others.filter((item) => {
    const box = item.getBoundingClientRect();
    return box.top + box.height / 2 < y;
  }).length;
}

/**
 * Dragging a link by its handle to another place in the list, with a mouse, pen or finger. The
 * list shows the new order as the pointer moves; `onDrop` gets it when the pointer is let go
 * somewhere else than where the link was. Keyboard users have the Move buttons.
 */
export function useLinkDrag(
  list: RefObject<HTMLElement | null>,
  links: readonly OwnLink[] | null,
  onDrop: (link: OwnLink, ids: string[]) => void,
) {
  const [drag, setDrag] = useState<Drag | null>(null);

  const start = (link: OwnLink, event: PointerEvent<HTMLElement>) => {
    if (!links || event.button !== 0) return;
    event.preventDefault();
    const ids = links.map((each) => each.id);
    let order = ids;
    setDrag({ id: link.id, order });
    const move = (moved: globalThis.PointerEvent) => {
      if (!list.current) return;
      const to = placeAt(list.current, link.id, moved.clientY);
      const next = order.filter((id) => id !== link.id);
      next.splice(to, 0, link.id);
      if (next.join() === order.join()) return;
      order = next;
      setDrag({ id: link.id, order });
    };
    const end = (ended: globalThis.PointerEvent) => {
      // On the window: the list reorders its items under the pointer while it moves.
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      setDrag(null);
      if (ended.type === 'pointerup' && order.join() !== ids.join()) onDrop(link, order);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  };

  /** The links in the order to show: while dragging, where the dragged one would go. */
  const shown = links && drag ? drag.order.flatMap((id) => links.filter((link) => link.id === id)) : links;
  return { shown, draggingId: drag?.id ?? null, start };
}
