import { useCallback, useSyncExternalStore } from 'react';
import type { Translation } from '../gql/schema-types';

const STORAGE_KEY = 'lampstand.translation';
const CHOICES: readonly Translation[] = ['KJV', 'WEB'];
const listeners = new Set<() => void>();
/** The choice when storage is switched off; it then lasts as long as the page. */
let memory: Translation | null = null;

function read(): Translation | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return CHOICES.find((choice) => choice === stored) ?? null;
  } catch {
    return memory;
  }
}

function subscribe(listener: () => void): () => void {
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

/**
 * The translation this visitor reads verses in, remembered in this browser; null until they pick
 * one (a member's page then shows the member's choice, the landing page the KJV).
 */
export function useReaderTranslation(): [Translation | null, (choice: Translation) => void] {
  const choice = useSyncExternalStore(subscribe, read, () => null);
  const choose = useCallback((next: Translation) => {
    memory = next;
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Kept in memory only (see read).
    }
    for (const listener of listeners) listener();
  }, []);
  return [choice, choose];
}
