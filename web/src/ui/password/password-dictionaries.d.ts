// The meter's word lists, made at build time by the passwordDictionaries() plugin (web/vite.config.ts).
declare module 'virtual:password-dictionaries' {
  import type { OptionsGraph, TranslationKeys } from '@zxcvbn-ts/core';

  export const commonPasswords: string[];
  /** The rest of the server's blocklist, front-coded (see web/vite.config.ts). */
  export const moreBlockedPasswords: string;
  export const firstNames: string[];
  export const adjacencyGraphs: OptionsGraph;
  export const translations: TranslationKeys;
}
