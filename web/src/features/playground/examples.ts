/** The operations the playground opens with: what third-party developers most often need. */
export interface ExampleOperation {
  query: string;
  variables: string;
}

const EXAMPLE_OPERATIONS: ExampleOperation[] = [
  {
    // GraphiQL fills the variables editor only from the second tab on, so the first needs none.
    query: `# The verse of the day, for today in the reader's time zone (IANA name).
# Pass \`date: "2028-02-29"\` instead for a given day: the same date always gives the same verse.
query VerseOfTheDay {
  verseOfTheDay(timeZone: "America/Chicago") {
    id
    ref
    text
    translation
  }
}
`,
    variables: '',
  },
  {
    query: `# One verse by its written reference ("John 3:16", "Jn 3:16", "1 Cor 13:4").
# Null when the King James Bible has no such verse.
query VerseLookup($ref: String!) {
  verse(ref: $ref) {
    id
    ref
    text
  }
}
`,
    variables: JSON.stringify({ ref: 'Psalm 119:105' }, null, 2),
  },
];

/**
 * The profile example, with the username and time zone as the variables' defaults too: GraphiQL
 * sometimes shows a tab whose variables it has not filled in yet, and the query still runs.
 */
const publicProfile = (username: string) => `query PublicProfile(
  $username: String! = ${JSON.stringify(username)}
  $timeZone: String = "Europe/London"
) {
  profile(username: $username) {
    username
    name
    bio
    # A 256 px square WebP; null when the member shows their initial instead.
    photoUrl
    plus
    joined
    # The visible links, in the member's order; \`highlighted\` is the one drawn larger (Plus).
    links {
      title
      url
      icon
      highlighted
    }
    appearance {
      theme
      layout
      button
    }
    # The member's translation unless you pass \`translation: WEB\` or \`KJV\`.
    verse(timeZone: $timeZone) {
      ref
      text
      translation
    }
  }
}
`;

/** What the profile example asks for when nobody is signed in: a fresh install has no member yet. */
export const EXAMPLE_USERNAME_PLACEHOLDER = 'your_username';

/**
 * The examples, the profile one for the signed-in member's own page (one that exists, even on a
 * fresh install), or for a placeholder to replace when nobody is signed in.
 */
export function exampleOperations(username: string | null): ExampleOperation[] {
  return [
    ...EXAMPLE_OPERATIONS,
    {
      query: `# A member's public page: the same data as lampstand's /@username.
# ${username ? 'This is your own page' : "Put a member's username in place of your_username (sign up to make yours)"}; null unless the profile
# exists and its owner shows it to visitors.
${publicProfile(username ?? EXAMPLE_USERNAME_PLACEHOLDER)}`,
      variables: JSON.stringify(
        { username: username ?? EXAMPLE_USERNAME_PLACEHOLDER, timeZone: 'Europe/London' },
        null,
        2,
      ),
    },
  ];
}

/** The name of the first named operation in `query` (comments aside), or null for an anonymous one. */
export function operationName(query: string): string | null {
  const code = query.replace(/#[^\n\r]*/g, '');
  return /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(code)?.[1] ?? null;
}
