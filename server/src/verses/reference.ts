import { badUserInput } from '../graphql/errors.js';

/** The parser's published types leave `parse()` untyped; this is the part we use. */
interface ReferenceParser {
  parse(text: string): { osis(): string };
}

/**
 * Made at the first reference read, not at start: the parser's grammar and English data are 0.6 MB
 * of source that a start compiled and every process kept (quality.md P6 and P9), and only a search
 * or a saved verse reads a reference.
 */
let parser: Promise<ReferenceParser> | undefined;
function referenceParser(): Promise<ReferenceParser> {
  parser ??= Promise.all([
    import('bible-passage-reference-parser'),
    import('bible-passage-reference-parser/esm/lang/en.js'),
  ]).then(([{ bcv_parser: BcvParser }, english]) => new BcvParser(english));
  return parser;
}
const SINGLE_VERSE = /^[1-3]?[A-Za-z]+\.\d+\.\d+$/;
export const MAX_REFERENCE_LENGTH = 100;

/**
 * Turns a written reference ("John 3:16", "Jn 3:16", "1 Cor 13:4") into its OSIS id
 * (`John.3.16`). Returns null when the text names no Bible verse; a chapter, range or list is a
 * BAD_USER_INPUT, since one verse is expected.
 */
export async function parseReference(ref: string, field = 'ref'): Promise<string | null> {
  const text = ref.trim();
  if (text.length === 0 || text.length > MAX_REFERENCE_LENGTH) {
    throw badUserInput(`${field} must be a verse reference such as John 3:16.`, field);
  }
  const osis = (await referenceParser()).parse(text).osis();
  if (osis === '') return null;
  if (!SINGLE_VERSE.test(osis)) {
    throw badUserInput(`${field} must name one verse, such as John 3:16, not a chapter or a range.`, field);
  }
  return osis;
}
