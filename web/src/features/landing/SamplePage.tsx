import type { VerseCard_VerseFragment } from '../../ui/verse/verse-card.generated';

/** The sample's links: pictures of a member's buttons, not links anyone follows. */
const SAMPLE_LINKS = ['Sunday sermons', 'Our church', 'Prayer requests'];

/**
 * What a member's page looks like, drawn by the landing page itself (no account behind it, so no
 * visitor ever lands on a made-up member): a name, a handle, a few links and today's verse, marked
 * as a sample.
 */
export function SamplePage({ verse }: { verse: VerseCard_VerseFragment | undefined }) {
  return (
    <section className="sample" aria-labelledby="sample-title">
      <h2 id="sample-title">What your page looks like</h2>
      <figure className="sample-page">
        <p className="sample-badge">Sample page</p>
        <div className="sample-identity">
          <span className="sample-monogram" aria-hidden="true">
            L
          </span>
          <div>
            <p className="sample-name">Lydia Purpura</p>
            <p className="sample-handle">@lydia</p>
          </div>
        </div>
        <ul className="sample-links" aria-label="Her links (pictures only)">
          {SAMPLE_LINKS.map((title) => (
            <li key={title}>{title}</li>
          ))}
        </ul>
        {verse && (
          <blockquote className="sample-verse">
            <p>{verse.text}</p>
            <footer>
              {verse.ref} <span className="translation">{verse.translation}</span>
            </footer>
          </blockquote>
        )}
        <figcaption>
          Every page has its own address (this one would be <span className="sample-address">/@lydia</span>) and the
          theme, layout and button style its member chooses.
        </figcaption>
      </figure>
    </section>
  );
}
