import type { Translation } from '../../gql/schema-types';

const OPTIONS: readonly { value: Translation; label: string; title: string }[] = [
  { value: 'KJV', label: 'KJV', title: 'King James Version' },
  { value: 'WEB', label: 'WEB', title: 'World English Bible (modern English)' },
];

/** Two buttons that switch the translation a verse is read in; the current one is pressed. */
export function TranslationToggle({
  value,
  onChange,
}: {
  value: Translation;
  onChange: (choice: Translation) => void;
}) {
  return (
    <div className="translation-toggle" role="group" aria-label="Translation">
      {OPTIONS.map((option) => (
        <button
          key={option.value}
          type="button"
          className="translation-toggle__option"
          aria-pressed={option.value === value}
          title={option.title}
          onClick={() => {
            onChange(option.value);
          }}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
