import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Translation } from '../../gql/schema-types';
import { ShareDialog } from '../../ui/profile/ShareDialog';

/**
 * Opens the page's sharing dialog (its link, QR code and verse image) over the server-rendered
 * page, and gives the focus back to the button that opened it when it closes.
 */
export function openShareDialog({
  opener,
  ...dialog
}: {
  username: string;
  url: string;
  title: string;
  translation: Translation;
  opener: HTMLElement;
}): void {
  const container = document.createElement('div');
  opener.after(container);
  const root = createRoot(container);
  let open = true;
  // Escape sends `cancel` and then `close`, and the dialog reports both.
  const close = () => {
    if (!open) return;
    open = false;
    root.unmount();
    container.remove();
    opener.focus();
  };
  root.render(
    <StrictMode>
      <ShareDialog {...dialog} onClose={close} />
    </StrictMode>,
  );
}
