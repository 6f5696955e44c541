import { useId, useRef, useState } from 'react';
import type { ChangeEvent } from 'react';
import { FormAlert, FormStatus } from '../../ui/Field';
import type { OwnPhoto, PhotoProblem } from './usePhoto';
import { PhotoUploadError } from './usePhoto';

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
 * The member's photo: what visitors see now, choosing another (shown before it is saved), and
 * removing it. The server makes every photo a 256 px square and keeps none of the file's details.
 */
export function PhotoPicker({ own, name }: { own: OwnPhoto; name: string }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; preview: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';

  const reset = () => {
    setChosen(null);
    if (input.current) input.current.value = '';
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setStatus(null);
    setProblem(null);
    if (!file) return;
    // The server checks again; these answer at once for the common mistakes.
    if (!PHOTO_TYPES.includes(file.type)) {
      setProblem(PROBLEMS.unsupported_format);
      reset();
      return;
    }
    if (file.size > MAX_PHOTO_BYTES) {
      setProblem(PROBLEMS.too_large);
      reset();
      return;
    }
    try {
      setChosen({ file, preview: await readAsDataUrl(file) });
    } catch {
      setProblem(PROBLEMS.not_an_image);
      reset();
    }
  };

  const save = async () => {
    if (!chosen || own.busy) return;
    setProblem(null);
    try {
      await own.upload(chosen.file);
      reset();
      setStatus('Your photo is saved.');
    } catch (error) {
      setProblem(PROBLEMS[error instanceof PhotoUploadError ? error.problem : 'network']);
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

  const shown = chosen?.preview ?? own.photoUrl;
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
              alt={chosen ? 'Your new photo, not saved yet' : 'Your photo'}
              width={96}
              height={96}
            />
          ) : (
            <div className="photo-picker-image photo-picker-initial" role="img" aria-label="No photo: your initial">
              {initial}
            </div>
          )}
          <div className="photo-picker-controls">
            <label htmlFor={inputId}>{own.photoUrl ? 'Choose another photo' : 'Choose a photo'}</label>
            <p id={`${inputId}-hint`} className="field-hint">
              JPEG, PNG or WebP, up to 5 MB. It shows as a circle; we keep a small square copy, without the file’s
              location or camera details.
            </p>
            <input
              ref={input}
              id={inputId}
              type="file"
              accept={PHOTO_TYPES.join(',')}
              aria-describedby={`${inputId}-hint`}
              onChange={(event) => void choose(event)}
            />
            <div className="photo-picker-actions">
              {chosen ? (
                <>
                  <button
                    type="button"
                    className="button button--primary button--small"
                    aria-disabled={own.busy || undefined}
                    onClick={() => void save()}
                  >
                    {own.busy ? 'Saving…' : 'Save photo'}
                  </button>
                  <button type="button" className="button button--small" onClick={reset}>
                    Cancel
                  </button>
                </>
              ) : (
                own.photoUrl && (
                  <button
                    type="button"
                    className="button button--small"
                    aria-disabled={own.busy || undefined}
                    onClick={() => void remove()}
                  >
                    {own.busy ? 'Removing…' : 'Remove photo'}
                  </button>
                )
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
