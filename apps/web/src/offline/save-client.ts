import type { Activity } from '@vers/domain';
import { storeChanges } from './store-changes.ts';
import type { VersDb } from './versdb.ts';

/*
 * The page's side of the save worker (save-worker.ts): the editor's rows go to the worker, which stores them and says
 * when its transaction committed. Where no worker can run (an old browser, a test in Node) or the worker fails to
 * start or dies, the rows are stored on this thread as before: an edit is never left unstored because of the worker.
 */

export interface SaveRequest {
  id: number;
  /** The IndexedDB database's name (tests run several simulated devices, each with its own). */
  database: string;
  rows: Activity[];
}

export type SaveReply =
  | {
      id: number;
      stored: Activity[];
      /** performance.timeOrigin + performance.now() in the worker. */ committedAt: number;
    }
  | { id: number; error: { name: string; message: string } };

export interface Stored {
  stored: Activity[];
  /** When the transaction committed, in this page's clock (performance.now()). */
  committed: number;
}

interface Waiting {
  db: VersDb;
  rows: Activity[];
  resolve: (stored: Stored) => void;
  reject: (error: unknown) => void;
}

/** Undefined: not started yet; null: none can run here (or it failed), so rows are stored on this thread. */
let worker: Worker | null | undefined;
let nextId = 0;
const unanswered = new Map<number, Waiting>();

async function storeHere(db: VersDb, rows: Activity[]): Promise<Stored> {
  try {
    return { stored: await storeChanges(db, rows), committed: performance.now() };
  } catch (error) {
    // Rows that a dying worker had stored before it could answer are there already (same ids): stored, not failed.
    const found = await db.orderResults.bulkGet(rows.map((row) => row.id)).catch(() => []);
    if (found.length === rows.length && found.every(Boolean)) {
      return { stored: found as Activity[], committed: performance.now() };
    }
    throw error;
  }
}

/** The worker failed (it could not load, or threw): what it has not answered is stored on this thread. */
function giveUp(reason: unknown) {
  console.error('save worker failed; edits are stored on the page itself', reason);
  worker?.terminate();
  worker = null;
  const left = [...unanswered.values()];
  unanswered.clear();
  for (const { db, rows, resolve, reject } of left) storeHere(db, rows).then(resolve, reject);
}

function answer(reply: SaveReply) {
  const waiting = unanswered.get(reply.id);
  if (!waiting) return;
  unanswered.delete(reply.id);
  if ('error' in reply) {
    waiting.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
  } else {
    waiting.resolve({ stored: reply.stored, committed: reply.committedAt - performance.timeOrigin });
  }
}

/** Starts the save worker ahead of the first edit (the editor calls it as it opens), where one can run. */
export function startSaveWorker(): void {
  if (worker !== undefined) return;
  if (typeof Worker === 'undefined') {
    worker = null;
    return;
  }
  try {
    worker = new Worker(new URL('./save-worker.ts', import.meta.url), { type: 'module', name: 'vers-save' });
  } catch (error) {
    worker = null;
    console.error('save worker not started', error);
    return;
  }
  worker.onmessage = (event: MessageEvent<SaveReply>) => answer(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    giveUp(event.message || 'error');
  };
  worker.onmessageerror = (event) => giveUp(event);
}

/**
 * Stores the rows of an edit (`changeRows`) in one transaction, on the save worker when one runs, else here; answers
 * the stored rows and when their transaction committed.
 */
export function storeChangesOffMainThread(db: VersDb, rows: Activity[]): Promise<Stored> {
  startSaveWorker();
  const running = worker;
  if (!running) return storeHere(db, rows);
  return new Promise<Stored>((resolve, reject) => {
    const id = nextId++;
    unanswered.set(id, { db, rows, resolve, reject });
    const request: SaveRequest = { id, database: db.name, rows };
    running.postMessage(request);
  });
}
