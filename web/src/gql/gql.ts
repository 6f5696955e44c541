/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query LandingPage($timeZone: String) {\n  verseOfTheDay(timeZone: $timeZone) {\n    ...VerseCard_verse\n  }\n}": typeof types.LandingPageDocument,
    "query ProfilePage($username: String!, $timeZone: String) {\n  profile(username: $username) {\n    ...ProfileView_profile\n  }\n}": typeof types.ProfilePageDocument,
    "fragment ProfileView_profile on PublicProfile {\n  username\n  name\n  plus\n  joined\n  appearance {\n    theme\n    layout\n    button\n  }\n  verse(timeZone: $timeZone) {\n    ...VerseCard_verse\n  }\n}": typeof types.ProfileView_ProfileFragmentDoc,
    "fragment VerseCard_verse on Verse {\n  id\n  ref\n  text\n  translation\n}": typeof types.VerseCard_VerseFragmentDoc,
};
const documents: Documents = {
    "query LandingPage($timeZone: String) {\n  verseOfTheDay(timeZone: $timeZone) {\n    ...VerseCard_verse\n  }\n}": types.LandingPageDocument,
    "query ProfilePage($username: String!, $timeZone: String) {\n  profile(username: $username) {\n    ...ProfileView_profile\n  }\n}": types.ProfilePageDocument,
    "fragment ProfileView_profile on PublicProfile {\n  username\n  name\n  plus\n  joined\n  appearance {\n    theme\n    layout\n    button\n  }\n  verse(timeZone: $timeZone) {\n    ...VerseCard_verse\n  }\n}": types.ProfileView_ProfileFragmentDoc,
    "fragment VerseCard_verse on Verse {\n  id\n  ref\n  text\n  translation\n}": types.VerseCard_VerseFragmentDoc,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query LandingPage($timeZone: String) {\n  verseOfTheDay(timeZone: $timeZone) {\n    ...VerseCard_verse\n  }\n}"): (typeof documents)["query LandingPage($timeZone: String) {\n  verseOfTheDay(timeZone: $timeZone) {\n    ...VerseCard_verse\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ProfilePage($username: String!, $timeZone: String) {\n  profile(username: $username) {\n    ...ProfileView_profile\n  }\n}"): (typeof documents)["query ProfilePage($username: String!, $timeZone: String) {\n  profile(username: $username) {\n    ...ProfileView_profile\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ProfileView_profile on PublicProfile {\n  username\n  name\n  plus\n  joined\n  appearance {\n    theme\n    layout\n    button\n  }\n  verse(timeZone: $timeZone) {\n    ...VerseCard_verse\n  }\n}"): (typeof documents)["fragment ProfileView_profile on PublicProfile {\n  username\n  name\n  plus\n  joined\n  appearance {\n    theme\n    layout\n    button\n  }\n  verse(timeZone: $timeZone) {\n    ...VerseCard_verse\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment VerseCard_verse on Verse {\n  id\n  ref\n  text\n  translation\n}"): (typeof documents)["fragment VerseCard_verse on Verse {\n  id\n  ref\n  text\n  translation\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;