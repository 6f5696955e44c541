/** The operations the playground opens with: what third-party developers most often need. */
export interface ExampleOperation {
  query: string;
  variables: string;
}

export const EXAMPLE_OPERATIONS: ExampleOperation[] = [
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
  {
    query: `# A member's public page: the same data as lampstand's /@username.
# Null unless the profile exists and its owner shows it to visitors.
query PublicProfile($username: String!, $timeZone: String) {
  profile(username: $username) {
    username
    name
    bio
    plus
    joined
    links {
      title
      url
      icon
    }
    appearance {
      theme
      layout
      button
    }
    verse(timeZone: $timeZone) {
      ref
      text
    }
  }
}
`,
    variables: JSON.stringify({ username: 'user123ab', timeZone: 'Europe/London' }, null, 2),
  },
];
