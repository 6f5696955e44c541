import { BrandMark } from '../../ui/BrandMark';
import type { ButtonStyle, Layout, Theme } from '../../gql/schema-types';
import type { VerseCard_VerseFragment } from '../../ui/verse/verse-card.generated';
import type { ProfileLink } from '../../ui/profile/ProfileLinks';
import { ProfileCard } from '../../ui/profile/ProfileView';

export interface PreviewLook {
  name: string;
  bio: string;
  username: string;
  theme: Theme;
  layout: Layout;
  button: ButtonStyle;
}

/**
 * The member's page as visitors will see it, with the look being edited, at the width it is given
 * (the page's layouts follow their container). Nothing in it can be focused or clicked.
 */
export function ProfilePreview({
  look,
  plus,
  links,
  versePinned,
  joined,
  verse,
  photoUrl = null,
}: {
  look: PreviewLook;
  plus: boolean;
  links: readonly ProfileLink[];
  versePinned: boolean;
  joined: string;
  verse: VerseCard_VerseFragment;
  /** The photo being shown on the page (or chosen and not yet saved). */
  photoUrl?: string | null;
}) {
  return (
    <div
      className={`profile profile--preview theme-${look.theme} layout-${look.layout} button-${look.button}`}
      data-theme={look.theme}
      data-layout={look.layout}
      data-button={look.button}
    >
      <div className="profile-bar" aria-hidden="true">
        <span className="profile-brand">
          <BrandMark size={20} />
          <span>Lampstand</span>
        </span>
        <span className="pbutton pbutton--primary">Share</span>
      </div>
      <div className="profile-main">
        <ProfileCard
          preview
          profile={{
            name: look.name.trim() || 'Your name',
            username: look.username,
            bio: look.bio.trim(),
            photoUrl,
            links,
            plus,
            versePinned,
            joined,
            verse,
          }}
        />
      </div>
    </div>
  );
}
