import type { Language } from '@vers/domain';
import { useSyncExternalStore } from 'react';

// Kept apart from the loader so that the login screen does not download the IndexedDB code to show progress.
let progress: number | null = null;
const listeners = new Set<() => void>();

export function setValueListProgress(value: number | null) {
  progress = value;
  for (const listener of listeners) listener();
}

export function useValueListProgress(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => progress,
  );
}

/** Loads the value lists in the background; the loader and Dexie arrive as their own chunk. */
export function refreshValueListsLater(language: Language, kind: 'full' | 'changes') {
  void Promise.all([import('./value-lists.ts'), import('./versdb.ts')]).then(([lists, db]) =>
    lists.refreshValueLists(db.versdb, language, kind),
  );
}
