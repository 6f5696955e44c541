import type { Translation } from '../gql/schema-types';

const STORAGE_KEY = 'lampstand.translation';
const CHOICES: readonly Translation[] = ['KJV', 'WEB'];
const listeners = new Set<() => void>();
/** The choice when storage is switched off; it then lasts as long as the page. */
let memory: Translation | null = null;

/**
 * The translation this visitor reads verses in, remembered in this browser; null until they pick
 * one. Plain functions without React, so that a page without it (the public page's islands) reads
 * and keeps the same choice as the app's `useReaderTranslation`.
 */
export function readTranslationChoice(): Translation | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return CHOICES.find((choice) => choice === stored) ?? null;
  } catch {
    return memory;
  }
}

/** Keeps the visitor's choice and tells every reader on the page. */
export function chooseTranslation(next: Translation): void {
  memory = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Kept in memory only (see readTranslationChoice).
  }
  for (const listener of listeners) listener();
}

/** Calls `listener` when the choice changes, on this page or in another tab. */
export function watchTranslationChoice(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
