import { useSyncExternalStore } from 'react';
import type { Translation } from '../gql/schema-types';
import { chooseTranslation, readTranslationChoice, watchTranslationChoice } from './translation-choice';

/**
 * The translation this visitor reads verses in, remembered in this browser; null until they pick
 * one (a member's page then shows the member's choice, the landing page the KJV).
 */
export function useReaderTranslation(): [Translation | null, (choice: Translation) => void] {
  const choice = useSyncExternalStore(watchTranslationChoice, readTranslationChoice, () => null);
  return [choice, chooseTranslation];
}
