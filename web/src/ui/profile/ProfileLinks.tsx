import type { CSSProperties } from 'react';
import type { ProfileLinks_LinkFragment } from './profile-links.generated';
import { linkDestination } from './link-destination';

export type ProfileLink = Omit<ProfileLinks_LinkFragment, '__typename'>;

/** A link's icon: the server's SVG used as a mask, so that it takes the button's text colour. */
function LinkIcon({ icon }: { icon: string }) {
  const style = { '--icon': `url("/icons/${encodeURIComponent(icon)}.svg")` } as CSSProperties;
  return <span className="plink-icon" aria-hidden="true" style={style} />;
}

/** The words on a link's button: its title, and where it goes under it. */
function LinkText({ link }: { link: ProfileLink }) {
  const destination = linkDestination(link.url);
  return (
    <span className="plink-text">
      <span className="plink-title">{link.title}</span>
      {destination && <span className="plink-host">{destination}</span>}
    </span>
  );
}

/**
 * A member's links as buttons in their button style, arranged by their layout. On the page each
 * goes through `/l/<id>`, which counts the click and redirects, and says under its title where it
 * goes; in the editor's preview they are pictures of buttons only.
 */
export function ProfileLinks({
  links,
  preview = false,
  labelledBy,
}: {
  links: readonly ProfileLink[];
  preview?: boolean;
  labelledBy: string;
}) {
  if (links.length === 0) return null;
  // The page's sections are h2s under the name; in the preview the name is itself an h3.
  const Heading = preview ? 'h4' : 'h2';
  return (
    <nav className="profile-links" aria-labelledby={labelledBy}>
      <Heading id={labelledBy} className="visually-hidden">
        Links
      </Heading>
      <ul>
        {links.map((link) => (
          <li key={link.id} className={link.highlighted ? 'plink-highlighted' : undefined}>
            {preview ? (
              <span className="pbutton plink">
                <LinkIcon icon={link.icon} />
                <LinkText link={link} />
              </span>
            ) : (
              <a className="pbutton plink" href={`/l/${encodeURIComponent(link.id)}`} rel="noopener">
                <LinkIcon icon={link.icon} />
                <LinkText link={link} />
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
