import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import type { ApiFailure } from '../../lib/errors';
import { useFormAction } from '../../lib/use-form-action';
import { SubmitButton, FormAlert, TextField } from '../../ui/Field';

/** As the server counts them (server/src/links/link-rules.ts). */
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

/** A link's title and address: adding one, or editing one in place. */
export function LinkForm({
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
