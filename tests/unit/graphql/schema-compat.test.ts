import { describe, expect, it } from 'vitest';
import { checkSchemaCompat, markedPaths } from '../../../server/src/graphql/schema-compat.js';

const PUBLISHED = `
type Query {
  profile(username: String!): Profile
  verse(ref: String!): Verse
}
type Profile { name: String! bio: String! }
type Verse { ref: String! text: String! }
`;

const NO_MARKS = '# Intended breaking changes\n\n(none)\n';

describe('the schema compatibility check', () => {
  it('passes a schema that only adds', async () => {
    const added = PUBLISHED.replace('bio: String!', 'bio: String! joined: String');
    const report = await checkSchemaCompat(PUBLISHED, added, NO_MARKS);
    expect(report.unmarked).toEqual([]);
  });

  it('fails a removed field and a new required argument that are not marked', async () => {
    const broken = PUBLISHED.replace(' bio: String!', '').replace(
      'verse(ref: String!)',
      'verse(ref: String!, translation: String!)',
    );
    const report = await checkSchemaCompat(PUBLISHED, broken, NO_MARKS);
    expect(report.unmarked.map((change) => [change.type, change.path])).toEqual(
      expect.arrayContaining([
        ['FIELD_REMOVED', 'Profile.bio'],
        ['FIELD_ARGUMENT_ADDED', 'Query.verse.translation'],
      ]),
    );
  });

  it('passes the same breaks once each is marked, by its path or its type', async () => {
    const broken = PUBLISHED.replace(' bio: String!', '').replace(
      'verse(ref: String!)',
      'verse(ref: String!, translation: String!)',
    );
    const marks = [
      '## Since the last published version',
      '',
      '- `Profile.bio`: moved to `about`, announced a release ahead.',
      '- `Query.verse`: a translation is required from now on.',
    ].join('\n');
    const report = await checkSchemaCompat(PUBLISHED, broken, marks);
    expect(report.unmarked).toEqual([]);
    expect(report.marked.map((change) => change.path).sort()).toEqual(['Profile.bio', 'Query.verse.translation']);
  });

  it('reads marks only from list items that start with a backticked path', () => {
    const marks = markedPaths('- `Profile.bio`: why\n* `Verse` : why\nA note on `Query.verse` in prose.\n');
    expect([...marks].sort()).toEqual(['Profile.bio', 'Verse']);
  });
});
