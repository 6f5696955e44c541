/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** The shape of a profile page's buttons. */
export type ButtonStyle =
  /** Filled with gold. Plus only. */
  | 'goldButton'
  /** Slightly rounded, filled (the default). */
  | 'normalButton'
  /** Outlined. */
  | 'outlineButton'
  /** Pill-shaped, filled. */
  | 'roundedButton';

/** How a profile page arranges its name and verse. */
export type Layout =
  /** Stacked, centred. */
  | 'column'
  /** Side by side on wide screens (the default). */
  | 'row';

/** The colours of a profile page. */
export type Theme =
  /** Dark background, light text. */
  | 'darkTheme'
  /** Olive and sage greens. Plus only. */
  | 'gardenTheme'
  /** Light paper and dark ink (the default). */
  | 'lightTheme'
  /** Warm dawn colours. Plus only. */
  | 'sunriseTheme';

export type LandingPageQueryVariables = Exact<{
  timeZone?: string | null | undefined;
}>;


export type LandingPageQuery = { __typename: 'Query', verseOfTheDay: { __typename: 'Verse', id: string, ref: string, text: string, translation: string } };

export type ProfilePageQueryVariables = Exact<{
  username: string;
  timeZone?: string | null | undefined;
}>;


export type ProfilePageQuery = { __typename: 'Query', profile: { __typename: 'PublicProfile', username: string, name: string, plus: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle }, verse: { __typename: 'Verse', id: string, ref: string, text: string, translation: string } } | null };

export type ProfileView_ProfileFragment = { __typename: 'PublicProfile', username: string, name: string, plus: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle }, verse: { __typename: 'Verse', id: string, ref: string, text: string, translation: string } };

export type VerseCard_VerseFragment = { __typename: 'Verse', id: string, ref: string, text: string, translation: string };
