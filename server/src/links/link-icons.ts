/**
 * The icon a link's button shows: a platform's own mark (from Simple Icons) when the address is on
 * a platform we recognise, otherwise a generic one (`email`, `phone`, `link`). The web app draws
 * each from `/icons/<key>.svg`.
 */
export const PLATFORM_ICONS = {
  youtube: ['youtube.com', 'youtu.be'],
  instagram: ['instagram.com'],
  facebook: ['facebook.com', 'fb.com', 'fb.me'],
  tiktok: ['tiktok.com'],
  x: ['x.com', 'twitter.com'],
  spotify: ['spotify.com'],
  applepodcasts: ['podcasts.apple.com'],
  whatsapp: ['whatsapp.com', 'wa.me'],
  threads: ['threads.net', 'threads.com'],
  telegram: ['t.me', 'telegram.me', 'telegram.org'],
  pinterest: ['pinterest.com'],
  soundcloud: ['soundcloud.com'],
  substack: ['substack.com'],
  patreon: ['patreon.com'],
  twitch: ['twitch.tv'],
  discord: ['discord.gg', 'discord.com'],
  github: ['github.com'],
  bluesky: ['bsky.app'],
  vimeo: ['vimeo.com'],
} as const;

export type PlatformIcon = keyof typeof PLATFORM_ICONS;
export type LinkIcon = PlatformIcon | 'email' | 'phone' | 'link';

/** Every icon key, platform marks first. */
export const LINK_ICONS: readonly LinkIcon[] = [
  ...(Object.keys(PLATFORM_ICONS) as PlatformIcon[]),
  'email',
  'phone',
  'link',
];

const byDomain = new Map<string, PlatformIcon>(
  Object.entries(PLATFORM_ICONS).flatMap(([icon, domains]) =>
    domains.map((domain): [string, PlatformIcon] => [domain, icon as PlatformIcon]),
  ),
);

/** The icon for a normalised link address (see `normalizeLinkUrl`). */
export function iconFor(address: string): LinkIcon {
  const url = new URL(address);
  if (url.protocol === 'mailto:') return 'email';
  if (url.protocol === 'tel:') return 'phone';
  // The host or any domain it sits under: `m.youtube.com` and `music.youtube.com` are YouTube.
  const labels = url.hostname.split('.');
  for (let start = 0; start < labels.length - 1; start += 1) {
    const icon = byDomain.get(labels.slice(start).join('.'));
    if (icon) return icon;
  }
  return 'link';
}
