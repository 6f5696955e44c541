/** A book of the Protestant canon as the KJV orders it. */
export interface Book {
  /** OSIS book code, the first part of a verse id (`Heb` in `Heb.3.4`). */
  osis: string;
  /** Name used in display references (`Hebrews 3:4`, `Psalm 23:1`). */
  name: string;
  /** Name the `kjv` package uses in its keys. */
  kjvName: string;
  testament: 'OT' | 'NT';
}

const book = (osis: string, name: string, testament: Book['testament'], kjvName = name): Book => ({
  osis,
  name,
  kjvName,
  testament,
});

export const books: readonly Book[] = [
  book('Gen', 'Genesis', 'OT'),
  book('Exod', 'Exodus', 'OT'),
  book('Lev', 'Leviticus', 'OT'),
  book('Num', 'Numbers', 'OT'),
  book('Deut', 'Deuteronomy', 'OT'),
  book('Josh', 'Joshua', 'OT'),
  book('Judg', 'Judges', 'OT'),
  book('Ruth', 'Ruth', 'OT'),
  book('1Sam', '1 Samuel', 'OT'),
  book('2Sam', '2 Samuel', 'OT'),
  book('1Kgs', '1 Kings', 'OT'),
  book('2Kgs', '2 Kings', 'OT'),
  book('1Chr', '1 Chronicles', 'OT'),
  book('2Chr', '2 Chronicles', 'OT'),
  book('Ezra', 'Ezra', 'OT'),
  book('Neh', 'Nehemiah', 'OT'),
  book('Esth', 'Esther', 'OT'),
  book('Job', 'Job', 'OT'),
  book('Ps', 'Psalm', 'OT', 'Psalms'),
  book('Prov', 'Proverbs', 'OT'),
  book('Eccl', 'Ecclesiastes', 'OT'),
  book('Song', 'Song of Solomon', 'OT', "Solomon's Song"),
  book('Isa', 'Isaiah', 'OT'),
  book('Jer', 'Jeremiah', 'OT'),
  book('Lam', 'Lamentations', 'OT'),
  book('Ezek', 'Ezekiel', 'OT'),
  book('Dan', 'Daniel', 'OT'),
  book('Hos', 'Hosea', 'OT'),
  book('Joel', 'Joel', 'OT'),
  book('Amos', 'Amos', 'OT'),
  book('Obad', 'Obadiah', 'OT'),
  book('Jonah', 'Jonah', 'OT'),
  book('Mic', 'Micah', 'OT'),
  book('Nah', 'Nahum', 'OT'),
  book('Hab', 'Habakkuk', 'OT'),
  book('Zeph', 'Zephaniah', 'OT'),
  book('Hag', 'Haggai', 'OT'),
  book('Zech', 'Zechariah', 'OT'),
  book('Mal', 'Malachi', 'OT'),
  book('Matt', 'Matthew', 'NT'),
  book('Mark', 'Mark', 'NT'),
  book('Luke', 'Luke', 'NT'),
  book('John', 'John', 'NT'),
  book('Acts', 'Acts', 'NT'),
  book('Rom', 'Romans', 'NT'),
  book('1Cor', '1 Corinthians', 'NT'),
  book('2Cor', '2 Corinthians', 'NT'),
  book('Gal', 'Galatians', 'NT'),
  book('Eph', 'Ephesians', 'NT'),
  book('Phil', 'Philippians', 'NT'),
  book('Col', 'Colossians', 'NT'),
  book('1Thess', '1 Thessalonians', 'NT'),
  book('2Thess', '2 Thessalonians', 'NT'),
  book('1Tim', '1 Timothy', 'NT'),
  book('2Tim', '2 Timothy', 'NT'),
  book('Titus', 'Titus', 'NT'),
  book('Phlm', 'Philemon', 'NT'),
  book('Heb', 'Hebrews', 'NT'),
  book('Jas', 'James', 'NT'),
  book('1Pet', '1 Peter', 'NT'),
  book('2Pet', '2 Peter', 'NT'),
  book('1John', '1 John', 'NT'),
  book('2John', '2 John', 'NT'),
  book('3John', '3 John', 'NT'),
  book('Jude', 'Jude', 'NT'),
  book('Rev', 'Revelation', 'NT'),
];

export const booksByOsis: ReadonlyMap<string, Book> = new Map(books.map((entry) => [entry.osis, entry]));
