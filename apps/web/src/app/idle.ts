import { useEffect, useState } from 'react';

/** The longest a background start waits for an idle main thread. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * False until the main thread was first idle after the app started (at most IDLE_TIMEOUT_MS): what runs beside the
 * pages (the sync scheduler, value lists, version polling) starts then, after the first screen, instead of taking
 * turns with its rendering (issue 19: Lighthouse's blocking time and speed index of the order list on a phone).
 */
export function useStartedIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (idle) return;
    // Safari has no requestIdleCallback: a timeout after the current work instead.
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(() => setIdle(true), 0);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(() => setIdle(true), { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(handle);
  }, [idle]);
  return idle;
}
