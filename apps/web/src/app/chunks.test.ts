import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkWaiting, loadChunk, onChunkWaitingChange } from './chunks.ts';

/** The site's answer to the online check: no network (fetch fails) or the server's page. */
let online = false;
/** How many online checks were asked. */
let checks = 0;
function stubNetwork() {
  checks = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      checks += 1;
      if (!online) throw new TypeError('Failed to fetch');
      return new Response('<!doctype html>', { status: 200 });
    }),
  );
}
afterEach(() => {
  vi.unstubAllGlobals();
  online = false;
});

/** Resolves once the waiting state is `expected`, checked at every change of it. */
function waitingBecomes(expected: boolean): Promise<void> {
  return new Promise((resolve) => {
    if (chunkWaiting() === expected) return resolve();
    const stop = onChunkWaitingChange(() => {
      if (chunkWaiting() !== expected) return;
      stop();
      resolve();
    });
  });
}

describe('loadChunk', () => {
  it('says a chunk waits from its first failure offline until it loads, without a gap between the retries', async () => {
    stubNetwork();
    const states: boolean[] = [];
    const stop = onChunkWaitingChange(() => states.push(chunkWaiting()));
    let tries = 0;
    const loaded = loadChunk(async () => {
      tries += 1;
      if (tries < 4) throw new TypeError('Failed to fetch dynamically imported module');
      return 'the screen';
    });
    await waitingBecomes(true);
    // Two more failed tries offline: the browser says "online" but the network is still gone. Each try's online
    // check has failed (and the loop waits for the next event) once the check is counted and its promises settled.
    for (const expected of [2, 3]) {
      window.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect([tries, checks]).toEqual([expected, expected]));
    }
    expect(chunkWaiting()).toBe(true);
    online = true;
    window.dispatchEvent(new Event('online'));
    await expect(loaded).resolves.toBe('the screen');
    stop();
    // One rise and one fall: the notice never went away between the tries.
    expect(states).toEqual([true, false]);
    expect(chunkWaiting()).toBe(false);
  });

  it('throws a failure while the server answers (a chunk gone with a new version), and nothing waits', async () => {
    stubNetwork();
    online = true;
    const gone = new TypeError('Failed to fetch dynamically imported module');
    await expect(
      loadChunk(async () => {
        throw gone;
      }),
    ).rejects.toBe(gone);
    expect(chunkWaiting()).toBe(false);
  });

  it('stops saying so when the chunk fails for good after the connection is back', async () => {
    stubNetwork();
    const gone = new TypeError('Failed to fetch dynamically imported module');
    const loaded = loadChunk(async () => {
      throw gone;
    });
    await waitingBecomes(true);
    online = true;
    window.dispatchEvent(new Event('online'));
    await expect(loaded).rejects.toBe(gone);
    expect(chunkWaiting()).toBe(false);
  });
});
