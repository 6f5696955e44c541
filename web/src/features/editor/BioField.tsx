/** As the server counts it (server/src/profiles/names.ts). */
const MAX_BIO_LENGTH = 160;

/** The bio: a few lines under the name, with how many characters are left. */
export function BioField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const left = MAX_BIO_LENGTH - Array.from(value.trim()).length;
  return (
    <div className="field">
      <label htmlFor="editor-bio">
        Bio<span className="field-optional"> (optional)</span>
      </label>
      <p id="editor-bio-hint" className="field-hint">
        A few words under your name. {left >= 0 ? `${left} characters left.` : `${-left} characters too many.`}
      </p>
      <textarea
        id="editor-bio"
        rows={3}
        value={value}
        aria-invalid={error || left < 0 ? true : undefined}
        aria-describedby={error ? 'editor-bio-hint editor-bio-error' : 'editor-bio-hint'}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      {error && (
        <p id="editor-bio-error" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
