import type { VerseCard_VerseFragment } from './verse-card.generated';

export function VerseCard({ verse }: { verse: VerseCard_VerseFragment }) {
  return (
    <figure className="verse-card">
      <blockquote className="verse-text">
        <p>{verse.text}</p>
      </blockquote>
      <figcaption className="verse-ref">
        {verse.ref} <span className="translation">{verse.translation}</span>
      </figcaption>
    </figure>
  );
}

/** Holds the card's place while the verse loads, so nothing moves when it arrives. */
export function VerseCardPlaceholder() {
  return (
    <div className="verse-card verse-card--placeholder" aria-hidden="true">
      <span className="line" />
      <span className="line" />
      <span className="line short" />
    </div>
  );
}
