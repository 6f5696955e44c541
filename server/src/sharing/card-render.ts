import { Theme } from '../profiles/appearance.js';

/** Open Graph's and Twitter's large card size. */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** The colours of each theme, as the web app paints the page (web/src/ui/profile/themes.css). */
const PALETTES: Record<Theme, { background: string; surface: string; ink: string; soft: string; accent: string }> = {
  [Theme.lightTheme]: { background: '#faf7f2', surface: '#ffffff', ink: '#1c2233', soft: '#4a5169', accent: '#8a5a12' },
  [Theme.darkTheme]: { background: '#10141c', surface: '#1a202c', ink: '#eeeae3', soft: '#b7bccb', accent: '#a9c1ff' },
  [Theme.sunriseTheme]: {
    background: 'linear-gradient(165deg, #fff6ec 0%, #ffe3cf 42%, #fbc4b4 78%, #f2a7a6 100%)',
    surface: '#fffaf5',
    ink: '#3a1d2a',
    soft: '#6b3f4c',
    accent: '#b93a12',
  },
  [Theme.gardenTheme]: {
    background: 'linear-gradient(170deg, #f4f7ec 0%, #e4edd6 55%, #cfdfbd 100%)',
    surface: '#fbfdf6',
    ink: '#1f2d1b',
    soft: '#485a40',
    accent: '#3d6a28',
  },
};

/** What a card shows: a member's page (name and handle above the verse) or the verse of the day alone. */
export interface CardContent {
  theme: Theme;
  /** The big line: the member's name, or "Verse of the day". */
  title: string;
  /** The line under it: `@username`, or the date. */
  subtitle: string;
  verseText: string;
  verseRef: string;
  /** The translation's short name (`KJV`, `WEB`), beside the reference. */
  translation: string;
  /** Which photo the card shows (`uid/version`), or null for the member's initial; none on a verse card. */
  photo: string | null;
}

/** What the card draws besides its content: the photo's PNG as a data URL, when it has one. */
export interface CardPicture {
  photoDataUrl: string | null;
}

/** A satori element: the shape React elements have, without React on the server. */
interface Node {
  type: string;
  props: {
    style?: Record<string, string | number>;
    children?: (Node | string)[] | Node | string;
    /** An `img`'s picture and size. */
    src?: string;
    width?: number;
    height?: number;
  };
}

const node = (type: string, style: Node['props']['style'], children?: Node['props']['children']): Node => ({
  type,
  props: { style, children },
});

/** Long verses are cut at a word, so that the card never overflows. */
function fit(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 20)).replace(/[\s,;:]+$/, '')}…`;
}

/** A satori element tree, as card.worker.ts draws it. */
export type CardTree = Node;

/**
 * The 1200×630 card in the page's theme (title, subtitle, verse and the site's name) as a satori
 * tree: cheap plain data, built here and drawn by card.worker.ts in the worker pool.
 */
export function cardTree(content: CardContent, picture: CardPicture = { photoDataUrl: null }): CardTree {
  const palette = PALETTES[content.theme];
  const verse = fit(content.verseText, 260);
  const heading = node('div', { display: 'flex', flexDirection: 'column' }, [
    node('div', { fontSize: 64, fontWeight: 700, lineHeight: 1.1 }, fit(content.title, 40)),
    node('div', { fontSize: 32, color: palette.soft, marginTop: 12 }, content.subtitle),
  ]);
  const identity = picture.photoDataUrl
    ? node('div', { display: 'flex', alignItems: 'center' }, [
        {
          type: 'img',
          props: {
            src: picture.photoDataUrl,
            width: 136,
            height: 136,
            style: {
              width: 136,
              height: 136,
              borderRadius: 68,
              objectFit: 'cover',
              marginRight: 36,
              border: `4px solid ${palette.surface}`,
            },
          },
        },
        heading,
      ])
    : heading;
  return node(
    'div',
    {
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      boxSizing: 'border-box',
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      paddingTop: 56,
      paddingBottom: 48,
      paddingLeft: 80,
      paddingRight: 80,
      background: palette.background,
      color: palette.ink,
      fontFamily: 'Lora',
    },
    [
      identity,
      node(
        'div',
        {
          display: 'flex',
          flexDirection: 'column',
          width: CARD_WIDTH - 160,
          boxSizing: 'border-box',
          paddingTop: 28,
          paddingBottom: 28,
          paddingLeft: 40,
          paddingRight: 40,
          borderRadius: 24,
          background: palette.surface,
          borderLeft: `8px solid ${palette.accent}`,
        },
        [
          node('div', { fontSize: verse.length > 160 ? 30 : 36, lineHeight: 1.4 }, `“${verse}”`),
          node('div', { display: 'flex', fontSize: 28, color: palette.accent, marginTop: 16 }, [
            node('div', { fontWeight: 700 }, content.verseRef),
            node('div', { marginLeft: 14, color: palette.soft }, content.translation),
          ]),
        ],
      ),
      node('div', { fontSize: 28, fontWeight: 700, color: palette.soft, display: 'flex' }, 'Lampstand'),
    ],
  );
}
