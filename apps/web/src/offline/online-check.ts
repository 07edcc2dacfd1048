/** An online check that hangs must not keep the banner stale for long. */
const ONLINE_CHECK_TIMEOUT_MS = 5_000;

/**
 * Online check in docs/requirements/sync.md#online-check: a GET of the site origin with a random query parameter (so no
 * cache answers it); 200-299 is online, anything else or no answer is offline. A module of its own: the chunk loader
 * of the main bundle (app/chunks.ts) asks it too, without the scheduler's IndexedDB code.
 */
export async function checkOnline(origin: string, timeoutMs = ONLINE_CHECK_TIMEOUT_MS): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/?t=${Math.random().toString(36).slice(2)}`, {
      cache: 'no-store',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body is not needed; dropping it frees the connection.
    void response.body?.cancel().catch(() => undefined);
    return response.status >= 200 && response.status <= 299;
  } catch {
    return false;
  }
}
