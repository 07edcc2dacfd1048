import { lazy, useSyncExternalStore } from 'react';
import { checkOnline } from '../offline/online-check.ts';

/** How long a chunk that could not load for want of a network waits before it is tried again (the scheduler's period). */
const RETRY_MS = 10_000;

let waiting = 0;
const listeners = new Set<() => void>();
function setWaiting(change: 1 | -1) {
  waiting += change;
  for (const listener of listeners) listener();
}

/** Until the browser says the network is back, or RETRY_MS at most (the browser's word is not always given). */
function connectionBack(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      resolve();
    };
    const timer = setTimeout(done, RETRY_MS);
    window.addEventListener('online', done);
  });
}

/**
 * Loads a chunk of the app; without a network it waits and loads it once the connection is back, instead of failing
 * the screen. Until the service worker controls the page (the visit after the one that installed it), every chunk not
 * yet loaded comes from the network: a tablet losing its Wi-Fi right after sign-in showed React Router's error page in
 * place of the start page (a CI run of e2e/tests/offline.test.ts). A failure while the server answers (a chunk gone
 * with a new version) is thrown, for the error screen and its reload.
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  // Counted from the first failure offline until the chunk has loaded (or failed for good), not per try: the notice
  // would otherwise go at every retry and come back only once the online check had failed again (up to 5 s).
  let counted = false;
  try {
    for (;;) {
      try {
        return await load();
      } catch {
        // Online now: the network may have come back since the failure; one more try tells.
        if (await checkOnline(location.origin)) return await load();
        if (!counted) setWaiting(1);
        counted = true;
        await connectionBack();
      }
    }
  } finally {
    if (counted) setWaiting(-1);
  }
}

/** React's `lazy` over `loadChunk`: the component's code waits for the connection rather than failing. */
export const lazyChunk: typeof lazy = (load) => lazy(() => loadChunk(load));

/** Calls `listener` whenever the number of chunks waiting for the connection changes; answers the unsubscribe. */
export function onChunkWaitingChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether some chunk is waiting for the connection now. */
export const chunkWaiting = (): boolean => waiting > 0;

/** Whether some chunk is waiting for the connection (the page fallback says so). */
export function useChunkWaiting(): boolean {
  return useSyncExternalStore(onChunkWaitingChange, chunkWaiting);
}
