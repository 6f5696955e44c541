/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type LandingPageQueryVariables = Exact<{
  timeZone?: string | null | undefined;
}>;


export type LandingPageQuery = { __typename: 'Query', verseOfTheDay: { __typename: 'Verse', id: string, ref: string, text: string, translation: string } };

export type VerseCard_VerseFragment = { __typename: 'Verse', id: string, ref: string, text: string, translation: string };

export const VerseCard_VerseFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerseCard_verse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"translation"}}]}}]} as unknown as DocumentNode<VerseCard_VerseFragment, unknown>;
export const LandingPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LandingPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verseOfTheDay"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"timeZone"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerseCard_verse"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerseCard_verse"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"translation"}}]}}]} as unknown as DocumentNode<LandingPageQuery, LandingPageQueryVariables>;