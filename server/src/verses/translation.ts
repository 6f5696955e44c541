import { registerEnumType } from 'type-graphql';

/** The translations whose whole text is stored. Both are in the public domain. */
export enum Translation {
  KJV = 'KJV',
  WEB = 'WEB',
}

/** What readers get when they choose nothing: the original product's translation. */
export const DEFAULT_TRANSLATION = Translation.KJV;

/** Names for people, e.g. in mail and on server-rendered pages. */
export const translationNames: Readonly<Record<Translation, string>> = {
  [Translation.KJV]: 'King James Version',
  [Translation.WEB]: 'World English Bible',
};

registerEnumType(Translation, {
  name: 'Translation',
  description: 'A Bible translation whose whole text Lampstand holds.',
  valuesConfig: {
    KJV: { description: 'King James Version (1769), public domain.' },
    WEB: { description: 'World English Bible, modern English, public domain.' },
  },
});
