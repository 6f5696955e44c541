import { lazy, Suspense, useState } from 'react';
import type { Translation } from '../../gql/schema-types';

/** The QR code and images load only when a visitor asks for them, never with the page (quality.md P7). */
const ShareDialog = lazy(() => import('./ShareDialog').then((module) => ({ default: module.ShareDialog })));

/** Opens the page's sharing dialog: its link, its QR code and today's verse as an image. */
export function ShareMore({
  username,
  url,
  title,
  translation,
}: {
  username: string;
  url: string;
  title: string;
  /** The translation the page shows its verse in. */
  translation: Translation;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="pbutton"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
        }}
      >
        QR code &amp; image
      </button>
      {open && (
        <Suspense fallback={null}>
          <ShareDialog
            username={username}
            url={url}
            title={title}
            translation={translation}
            onClose={() => {
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
