import type { ReactNode } from 'react';
import type { LookOption } from './looks';

/** A set of radio buttons for one part of the look; Plus choices are marked as such. */
export function ChoiceGroup<T extends string>({
  name,
  legend,
  options,
  value,
  onChange,
  note,
  swatch,
}: {
  name: string;
  legend: string;
  options: LookOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Shown below the choices and read with them, e.g. about a Plus choice. */
  note?: ReactNode;
  /** A small picture of each choice (decorative: the label names it). */
  swatch: (value: T) => ReactNode;
}) {
  const noteId = `${name}-note`;
  return (
    <fieldset className="choices" aria-describedby={note ? noteId : undefined}>
      <legend>{legend}</legend>
      <div className="choice-list">
        {options.map((option) => (
          <label key={option.value} className="choice">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => {
                onChange(option.value);
              }}
            />
            <span className="choice-swatch" aria-hidden="true">
              {swatch(option.value)}
            </span>
            <span className="choice-label">
              {option.label}
              {option.plus && (
                <span className="plus-tag">
                  Plus<span className="visually-hidden"> only</span>
                </span>
              )}
            </span>
          </label>
        ))}
      </div>
      {note && (
        <p id={noteId} className="choices-note">
          {note}
        </p>
      )}
    </fieldset>
  );
}
