import type { ReactNode } from 'react';
import { BrandMark } from '../BrandMark';
import { CookieSettingsButton } from '../../consent/CookieSettingsButton';
import type { ProfileView_ProfileFragment } from './profile-view.generated';
import type { VerseCard_VerseFragment } from '../verse/verse-card.generated';
import { PageHeading } from '../PageHeading';
import { PageLink } from '../page-location';
import { VerseCard, VerseCardPlaceholder } from '../verse/VerseCard';
import type { ProfileLink } from './ProfileLinks';
import { ProfileLinks } from './ProfileLinks';
import { ShareButton } from './ShareButton';
import { ShareMore } from './ShareMore';
import './profile.css';

type Appearance = ProfileView_ProfileFragment['appearance'];

/** The look before a profile arrives: the defaults every new member starts with. */
const DEFAULT_APPEARANCE: Omit<Appearance, '__typename'> = {
  theme: 'lightTheme',
  layout: 'row',
  button: 'normalButton',
};

/** The words of a profile page's title and description; the server sends the same (server/src/http/web.ts). */
export function profileMeta(profile: Pick<ProfileView_ProfileFragment, 'name' | 'username' | 'bio'>) {
  return {
    title: `${profile.name} (@${profile.username}) · Lampstand`,
    description: profile.bio || `${profile.name}’s page on Lampstand, with a Bible verse for every day.`,
  };
}

function profileUrl(username: string): string {
  return `${window.location.origin}/@${encodeURIComponent(username)}`;
}

// Made once: making an Intl.DateTimeFormat costs far more than using one (it was ~5% of the server's
// CPU for a page rendered afresh).
const joinedFormat = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });

function joinedLabel(joined: string): string {
  return joinedFormat.format(new Date(joined));
}

function PlusBadge() {
  return (
    <span className="plus-badge">
      <svg aria-hidden="true" viewBox="0 0 24 24" width="14" height="14">
        <path d="M12 2l2.6 6.9L22 12l-7.4 3.1L12 22l-2.6-6.9L2 12l7.4-3.1z" fill="currentColor" />
      </svg>
      Plus<span className="visually-hidden"> member</span>
    </span>
  );
}

/**
 * The frame of a member's page: their theme, layout and button style on every part of it. It works
 * inside the app and without its router, as the public page's own document (web/src/public-page.tsx).
 */
function ProfileFrame({
  appearance,
  actions,
  footer,
  children,
}: {
  appearance: Omit<Appearance, '__typename'>;
  actions?: ReactNode;
  /** What the page adds at the end of its footer, in its theme (a visitor's "Report this page"). */
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      className={`profile theme-${appearance.theme} layout-${appearance.layout} button-${appearance.button}`}
      data-theme={appearance.theme}
      data-layout={appearance.layout}
      data-button={appearance.button}
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="profile-bar">
        <PageLink to="/" className="profile-brand" aria-label="Lampstand home">
          <BrandMark size={22} />
          <span>Lampstand</span>
        </PageLink>
        {actions}
      </header>
      <main id="main" tabIndex={-1} className="profile-main">
        {children}
      </main>
      <footer className="profile-footer">
        <p>Scripture from the King James Version (1769) and the World English Bible, both public domain.</p>
        <p className="profile-footer-links">
          <PageLink to="/signup">Make your own page on Lampstand</PageLink>
          <CookieSettingsButton />
        </p>
        {footer}
      </footer>
    </div>
  );
}

/** What a profile card shows: a public profile, or a member's own one in the editor's preview. */
export interface ProfileCardData {
  name: string;
  username: string;
  /** A few words under the name; empty for none. */
  bio: string;
  /** The member's photo (a 256 px square), or null for their initial. */
  photoUrl?: string | null;
  links: readonly ProfileLink[];
  plus: boolean;
  /** The verse is one the owner chose (Plus), not the verse of the day. */
  versePinned: boolean;
  joined: string;
  verse: VerseCard_VerseFragment;
}

/**
 * A member's name, handle and verse. On their page the name is the page's `<h1>`, which takes the
 * focus after a navigation as every page's does; in the editor's preview (`preview`) it sits one
 * level below the editor's own heading.
 */
export function ProfileCard({
  profile,
  preview = false,
  verseControls,
}: {
  profile: ProfileCardData;
  preview?: boolean;
  /** Shown under the verse, e.g. the visitor's translation toggle. */
  verseControls?: ReactNode;
}) {
  const initial = Array.from(profile.name.trim())[0]?.toUpperCase() ?? '?';
  const VerseTitle = preview ? 'h4' : 'h2';
  const ids = preview
    ? { name: 'preview-name', verse: 'preview-verse-title', links: 'preview-links-title' }
    : { name: 'profile-name', verse: 'profile-verse-title', links: 'profile-links-title' };
  return (
    <article className="profile-card" aria-labelledby={ids.name}>
      <div className="profile-identity">
        {profile.photoUrl ? (
          <img className="monogram monogram--photo" src={profile.photoUrl} alt="" width={256} height={256} />
        ) : (
          <div className="monogram" aria-hidden="true">
            {initial}
          </div>
        )}
        <div className="identity-text">
          {preview ? (
            <h3 id={ids.name} className="profile-name">
              {profile.name}
            </h3>
          ) : (
            <PageHeading id={ids.name} className="profile-name">
              {profile.name}
            </PageHeading>
          )}
          <p className="profile-handle">
            <span>@{profile.username}</span>
            {profile.plus && <PlusBadge />}
          </p>
          {profile.bio && <p className="profile-bio">{profile.bio}</p>}
          <p className="profile-since">Member since {joinedLabel(profile.joined)}</p>
        </div>
      </div>
      <ProfileLinks links={profile.links} preview={preview} labelledBy={ids.links} />
      <section className="profile-verse" aria-labelledby={ids.verse}>
        <VerseTitle id={ids.verse} className="profile-verse-title">
          {profile.versePinned ? 'A verse I keep close' : 'Today’s verse'}
        </VerseTitle>
        <VerseCard verse={profile.verse} />
        {verseControls}
      </section>
    </article>
  );
}

/**
 * A member's public page as visitors see it. `url` is the page's address, which the browser knows;
 * the server's rendering (web/src/ssr.tsx) gives it.
 */
export function ProfileView({
  profile,
  url = profileUrl(profile.username),
  verseControls,
  footer,
}: {
  profile: ProfileView_ProfileFragment;
  url?: string;
  verseControls?: ReactNode;
  footer?: ReactNode;
}) {
  const { title } = profileMeta(profile);
  return (
    <ProfileFrame
      appearance={profile.appearance}
      footer={footer}
      actions={
        <div className="profile-actions">
          <ShareButton url={url} title={title} className="pbutton pbutton--primary" />
          <ShareMore username={profile.username} url={url} title={title} translation={profile.verse.translation} />
        </div>
      }
    >
      <ProfileCard profile={profile} verseControls={verseControls} />
    </ProfileFrame>
  );
}

/** The page while the profile loads: the same boxes as the real one, so nothing moves when it arrives. */
export function ProfileSkeleton({ username }: { username: string }) {
  return (
    <ProfileFrame
      appearance={DEFAULT_APPEARANCE}
      actions={
        <ShareButton
          url={profileUrl(username)}
          title={`@${username} · Lampstand`}
          className="pbutton pbutton--primary"
        />
      }
    >
      <article className="profile-card" aria-busy="true" aria-label="Loading profile">
        <div className="profile-identity">
          <div className="monogram monogram--placeholder" aria-hidden="true" />
          <div className="identity-text" aria-hidden="true">
            <span className="placeholder-line placeholder-line--title" />
            <span className="placeholder-line placeholder-line--handle" />
            <span className="placeholder-line placeholder-line--since" />
          </div>
        </div>
        <section className="profile-verse" aria-hidden="true">
          <h2 className="profile-verse-title">Today’s verse</h2>
          <VerseCardPlaceholder />
        </section>
      </article>
    </ProfileFrame>
  );
}

/** The page when the profile could not be loaded (not when it does not exist: that is the 404 page). */
export function ProfileError({ onRetry }: { onRetry: () => void }) {
  return (
    <ProfileFrame appearance={DEFAULT_APPEARANCE}>
      <div className="profile-card profile-card--message" role="alert">
        <PageHeading id="profile-error-title">We couldn’t load this page</PageHeading>
        <p>Please check your connection and try again.</p>
        <button type="button" className="pbutton pbutton--primary" onClick={onRetry}>
          Try again
        </button>
      </div>
    </ProfileFrame>
  );
}
