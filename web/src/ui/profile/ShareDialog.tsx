import { useEffect, useRef, useState } from 'react';
import { shareLink } from './share';
import type { ShareResult } from './share';
import type { Translation } from '../../gql/schema-types';

const TRANSLATION_NAMES: Record<Translation, string> = {
  KJV: 'King James Version',
  WEB: 'World English Bible',
};

/** Today in the visitor's own calendar, as the verse of the day counts it. */
function localDay(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

type ImageShare = 'idle' | 'busy' | 'shared' | 'unsupported' | 'failed';

/** Shares the verse card as a file where the browser can; elsewhere the dialog's download link does. */
async function shareImage(imageUrl: string, fileName: string, title: string): Promise<ImageShare> {
  if (typeof navigator.share !== 'function' || typeof navigator.canShare !== 'function') return 'unsupported';
  try {
    const response = await fetch(imageUrl);
    if (!response.ok) return 'failed';
    const file = new File([await response.blob()], fileName, { type: 'image/png' });
    if (!navigator.canShare({ files: [file] })) return 'unsupported';
    await navigator.share({ files: [file], title });
    return 'shared';
  } catch (error) {
    return error instanceof DOMException && error.name === 'AbortError' ? 'idle' : 'failed';
  }
}

/**
 * The page's sharing dialog (loaded on demand): the link to copy or share, the QR code to scan or
 * download (SVG or PNG), and the verse of the day as an image to share or download.
 */
export function ShareDialog({
  username,
  url,
  title,
  translation,
  onClose,
}: {
  username: string;
  url: string;
  title: string;
  /** The translation the page shows its verse in: the image shows the same. */
  translation: Translation;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [link, setLink] = useState<ShareResult | null>(null);
  const [image, setImage] = useState<ImageShare>('idle');
  const base = `/share/${encodeURIComponent(username)}`;
  const day = localDay();
  const verseImage = `/share/verse-of-the-day/${day}.png${translation === 'KJV' ? '' : `?translation=${translation}`}`;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  return (
    <dialog
      ref={dialog}
      className="share-dialog"
      aria-labelledby="share-dialog-title"
      onClose={onClose}
      onCancel={onClose}
    >
      <div className="share-dialog-head">
        <h2 id="share-dialog-title">Share this page</h2>
        <button
          type="button"
          className="pbutton"
          onClick={() => {
            dialog.current?.close();
          }}
        >
          Close
        </button>
      </div>

      <section aria-labelledby="share-link-title">
        <h3 id="share-link-title">Link</h3>
        <p className="share-url">{url}</p>
        <button
          type="button"
          className="pbutton pbutton--primary"
          onClick={() => {
            void shareLink({ url, title }).then(setLink);
          }}
        >
          {typeof navigator.share === 'function' ? 'Share link' : 'Copy link'}
        </button>
        <p role="status" className="share-status">
          {link === 'copied' && 'Link copied'}
          {link === 'failed' && 'Select the link above to copy it.'}
        </p>
      </section>

      <section aria-labelledby="share-qr-title">
        <h3 id="share-qr-title">QR code</h3>
        <img className="share-qr" src={`${base}/qr.svg`} width={200} height={200} alt={`QR code that opens ${url}`} />
        <p className="share-downloads">
          <a className="pbutton" href={`${base}/qr.svg`} download={`lampstand-${username}-qr.svg`}>
            Download SVG
          </a>
          <a className="pbutton" href={`${base}/qr.png`} download={`lampstand-${username}-qr.png`}>
            Download PNG
          </a>
        </p>
      </section>

      <section aria-labelledby="share-verse-title">
        <h3 id="share-verse-title">Today’s verse as an image</h3>
        <img
          className="share-verse"
          src={verseImage}
          width={1200}
          height={630}
          alt={`Today’s verse on a card, in the ${TRANSLATION_NAMES[translation]}`}
        />
        <p className="share-downloads">
          <button
            type="button"
            className="pbutton pbutton--primary"
            aria-disabled={image === 'busy' || undefined}
            onClick={() => {
              if (image === 'busy') return;
              setImage('busy');
              void shareImage(verseImage, `verse-${day}-${translation}.png`, 'Today’s verse').then(setImage);
            }}
          >
            Share image
          </button>
          <a className="pbutton" href={verseImage} download={`verse-${day}-${translation}.png`}>
            Download image
          </a>
        </p>
        <p role="status" className="share-status">
          {image === 'unsupported' && 'This browser cannot share images: download it and share it from your device.'}
          {image === 'failed' && 'We couldn’t share the image. Download it instead.'}
        </p>
      </section>
    </dialog>
  );
}
