/// <reference lib="webworker" />
/*
 * The save worker: stores the editor's edits (`storeChanges`) on a thread of their own. On the page's main thread the
 * answers of IndexedDB wait behind the Tab key's re-render and, since Chromium's deferral of tasks after an input
 * (DeferRendererTasksAfterInput), behind the next frame: an edit's transaction, which reads before it commits, then
 * commits ~25 ms after the key (bench/: save p95 28 ms; 18 ms with that deferral switched off). Here nothing else
 * runs, and the commit follows the key by a few milliseconds. The page hears of the commit as before, through the
 * reply and Dexie's change broadcast (save-client.ts).
 */
import { storeChanges } from './store-changes.ts';
import type { SaveReply, SaveRequest } from './save-client.ts';
import { VersDb } from './versdb.ts';

declare const self: DedicatedWorkerGlobalScope;

const connections = new Map<string, VersDb>();

self.onmessage = (event: MessageEvent<SaveRequest>) => {
  const { id, database, rows } = event.data;
  let db = connections.get(database);
  if (!db) connections.set(database, (db = new VersDb(database)));
  storeChanges(db, rows).then(
    (stored) => {
      const reply: SaveReply = { id, stored, committedAt: performance.timeOrigin + performance.now() };
      self.postMessage(reply);
    },
    (error: unknown) => {
      const reply: SaveReply = {
        id,
        error:
          error instanceof Error
            ? { name: error.name, message: error.message }
            : { name: 'Error', message: String(error) },
      };
      self.postMessage(reply);
    },
  );
};
