import { useId, useRef, useState } from 'react';
import type { ChangeEvent } from 'react';
import { FormAlert, FormStatus } from '../../ui/Field';
import { AskFirst } from './AskFirst';
import type { OwnPhoto, PhotoProblem } from './use-photo';
import { PhotoUploadError } from './use-photo';

/** As the server takes them (server/src/photos/photo.pipeline.ts). */
const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

const PROBLEMS: Record<PhotoProblem, string> = {
  empty: 'That file is empty. Please choose a photo.',
  too_large: 'That photo is larger than 5 MB. Please choose a smaller one.',
  not_an_image: 'We couldn’t read that file as a photo. Please choose a JPEG, PNG or WebP image.',
  unsupported_format: 'Please choose a JPEG, PNG or WebP image.',
  too_many_pixels: 'That image is too big to use (over 50 megapixels). Please choose a smaller one.',
  too_heavy:
    'That image is too heavy to use (a very large PNG or WebP, or 16 bits per colour). Please choose a JPEG or a smaller image.',
  too_many_uploads: 'You have changed your photo many times this hour. Please try again later.',
  busy: 'We are busy with other photos just now. Please try again in a moment.',
  signed_out: 'Your session has ended. Please sign in again to change your photo.',
  network: 'We couldn’t save your photo. Please check your connection and try again.',
};

/** The file as a `data:` address: the page's Content-Security-Policy allows those images, not `blob:` ones. */
function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      resolve(typeof reader.result === 'string' ? reader.result : '');
    };
    reader.onerror = () => {
      reject(reader.error ?? new Error('unreadable'));
    };
    reader.readAsDataURL(file);
  });
}

/**
 * Whether the browser can draw the file as a picture: a file that only claims to be a photo is
 * refused when it is picked, before anything is sent.
 */
async function decodes(file: Blob): Promise<boolean> {
  if (typeof createImageBitmap === 'function') {
    try {
      (await createImageBitmap(file)).close();
      return true;
    } catch {
      return false;
    }
  }
  try {
    const image = new Image();
    image.src = await readAsDataUrl(file);
    await image.decode();
    return image.naturalWidth > 0;
  } catch {
    return false;
  }
}

/** Why a picked file cannot be a photo, found at once in the browser; the server checks again. */
async function refusalOf(file: File): Promise<string | null> {
  if (!PHOTO_TYPES.includes(file.type)) return PROBLEMS.unsupported_format;
  if (file.size === 0) return PROBLEMS.empty;
  if (file.size > MAX_PHOTO_BYTES) return PROBLEMS.too_large;
  return (await decodes(file)) ? null : PROBLEMS.not_an_image;
}

/**
 * The member's photo: what visitors see now, choosing another and removing it. Unlike the rest of
 * the page's settings, a photo is saved as soon as it is chosen, and the hint says so. The server
 * makes every photo a 256 px square and keeps none of the file's details.
 */
export function PhotoPicker({ own, name }: { own: OwnPhoto; name: string }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [saving, setSaving] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';

  const refuse = (message: string) => {
    setProblem(message);
    if (input.current) input.current.value = '';
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setStatus(null);
    setProblem(null);
    if (!file || own.busy) return;
    const refusal = await refusalOf(file);
    if (refusal) {
      refuse(refusal);
      return;
    }
    setSaving(await readAsDataUrl(file).catch(() => null));
    try {
      await own.upload(file);
      setStatus('Your photo is saved.');
    } catch (error) {
      setProblem(PROBLEMS[error instanceof PhotoUploadError ? error.problem : 'network']);
    } finally {
      setSaving(null);
      if (input.current) input.current.value = '';
    }
  };

  const remove = async () => {
    if (own.busy) return;
    setProblem(null);
    setStatus(null);
    try {
      await own.remove();
      setStatus('Your photo is removed. Your page shows your initial.');
    } catch {
      setProblem('We couldn’t remove your photo. Please check your connection and try again.');
    }
  };

  const shown = saving ?? own.photoUrl;
  return (
    <section className="photo-picker" aria-labelledby="photo-title">
      <h2 id="photo-title">Photo</h2>
      {own.error && !own.loading ? (
        <div role="alert" className="form-alert">
          We couldn’t load your photo.{' '}
          <button type="button" className="button button--small" onClick={own.refetch}>
            Try again
          </button>
        </div>
      ) : own.loading ? (
        <p className="photo-picker-note">Loading your photo…</p>
      ) : (
        <div className="photo-picker-body">
          {shown ? (
            <img
              className="photo-picker-image"
              src={shown}
              alt={saving ? 'Your new photo, being saved' : 'Your photo'}
              width={96}
              height={96}
            />
          ) : (
            <div className="photo-picker-image photo-picker-initial" role="img" aria-label="No photo: your initial">
              {initial}
            </div>
          )}
          <div className="photo-picker-controls">
            <p id={`${inputId}-hint`} className="field-hint">
              JPEG, PNG or WebP, up to 5 MB, saved as soon as you choose it. It shows as a circle; we keep a small
              square copy, without the file’s location or camera details.
            </p>
            <div className="photo-picker-actions">
              {/* The file input itself is hidden but focusable; its label is the button people see. */}
              <input
                ref={input}
                id={inputId}
                className="photo-picker-input"
                type="file"
                accept={PHOTO_TYPES.join(',')}
                aria-describedby={`${inputId}-hint`}
                onChange={(event) => void choose(event)}
              />
              <label htmlFor={inputId} className="button button--small photo-picker-choose">
                {saving ? 'Saving…' : own.photoUrl ? 'Choose another photo' : 'Choose a photo'}
              </label>
              {own.photoUrl && !saving && (
                <AskFirst
                  id={`${inputId}-remove`}
                  label={own.busy ? 'Removing…' : 'Remove photo'}
                  className="button button--small button--quiet"
                  busy={own.busy}
                  question="Remove your photo? Your page shows your initial instead, until you choose another."
                  confirmLabel="Remove photo"
                  onConfirm={() => void remove()}
                />
              )}
            </div>
          </div>
        </div>
      )}
      <FormAlert>{problem}</FormAlert>
      <FormStatus>{status}</FormStatus>
    </section>
  );
}
