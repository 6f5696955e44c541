import { bcv_parser as BcvParser } from 'bible-passage-reference-parser';
import * as english from 'bible-passage-reference-parser/esm/lang/en.js';
import { badUserInput } from '../graphql/errors.js';

/** The parser's published types leave `parse()` untyped; this is the part we use. */
interface ReferenceParser {
  parse(text: string): { osis(): string };
}

const parser: ReferenceParser = new BcvParser(english);
const SINGLE_VERSE = /^[1-3]?[A-Za-z]+\.\d+\.\d+$/;
export const MAX_REFERENCE_LENGTH = 100;

/**
 * Turns a written reference ("John 3:16", "Jn 3:16", "1 Cor 13:4") into its OSIS id
 * (`John.3.16`). Returns null when the text names no Bible verse; a chapter, range or list is a
 * BAD_USER_INPUT, since one verse is expected.
 */
export function parseReference(ref: string, field = 'ref'): string | null {
  const text = ref.trim();
  if (text.length === 0 || text.length > MAX_REFERENCE_LENGTH) {
    throw badUserInput(`${field} must be a verse reference such as John 3:16.`, field);
  }
  const osis = parser.parse(text).osis();
  if (osis === '') return null;
  if (!SINGLE_VERSE.test(osis)) {
    throw badUserInput(`${field} must name one verse, such as John 3:16, not a chapter or a range.`, field);
  }
  return osis;
}
