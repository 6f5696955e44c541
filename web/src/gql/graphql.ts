/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
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

export const VerseCard_VerseFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerseCard_verse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"translation"}}]}}]} as unknown as DocumentNode<VerseCard_VerseFragment, unknown>;
export const ProfileView_ProfileFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileView_profile"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PublicProfile"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"plus"}},{"kind":"Field","name":{"kind":"Name","value":"joined"}},{"kind":"Field","name":{"kind":"Name","value":"appearance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"theme"}},{"kind":"Field","name":{"kind":"Name","value":"layout"}},{"kind":"Field","name":{"kind":"Name","value":"button"}}]}},{"kind":"Field","name":{"kind":"Name","value":"verse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"timeZone"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerseCard_verse"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerseCard_verse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"translation"}}]}}]} as unknown as DocumentNode<ProfileView_ProfileFragment, unknown>;
export const LandingPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LandingPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verseOfTheDay"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"timeZone"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerseCard_verse"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerseCard_verse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"translation"}}]}}]} as unknown as DocumentNode<LandingPageQuery, LandingPageQueryVariables>;
export const ProfilePageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProfilePage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"username"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"profile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"username"},"value":{"kind":"Variable","name":{"kind":"Name","value":"username"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileView_profile"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerseCard_verse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"translation"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileView_profile"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PublicProfile"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"plus"}},{"kind":"Field","name":{"kind":"Name","value":"joined"}},{"kind":"Field","name":{"kind":"Name","value":"appearance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"theme"}},{"kind":"Field","name":{"kind":"Name","value":"layout"}},{"kind":"Field","name":{"kind":"Name","value":"button"}}]}},{"kind":"Field","name":{"kind":"Name","value":"verse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"timeZone"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerseCard_verse"}}]}}]}}]} as unknown as DocumentNode<ProfilePageQuery, ProfilePageQueryVariables>;