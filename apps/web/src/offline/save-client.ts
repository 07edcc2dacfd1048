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

/** How long an edit waits for the worker's answer before the page stores it itself; it usually takes milliseconds. */
const WORKER_PATIENCE_MS = 10_000;

/** Undefined: not started yet; null: none can run here (or it failed), so rows are stored on this thread. */
let worker: Worker | null | undefined;
let nextId = 0;
const unanswered = new Map<number, Waiting>();

/**
 * The rows, when all of them are stored already (same ids): by a dying worker before it could answer, or by another
 * tab that found them in the journal. An edit lands whole or not at all, so finding them all means it landed.
 */
async function foundStored(db: VersDb, rows: Activity[]): Promise<Activity[] | undefined> {
  const found = await db.orderResults.bulkGet(rows.map((row) => row.id)).catch(() => []);
  return found.length === rows.length && found.every(Boolean) ? (found as Activity[]) : undefined;
}

async function storeHere(db: VersDb, rows: Activity[]): Promise<Stored> {
  try {
    return { stored: await storeChanges(db, rows), committed: performance.now() };
  } catch (error) {
    const found = await foundStored(db, rows);
    if (found) return { stored: found, committed: performance.now() };
    throw error;
  }
}

/*
 * The journal: an edit's rows are written to localStorage (synchronously, before the key press's handler returns)
 * until their IndexedDB transaction has committed. A page reloaded, closed or crashed in between (the worker still
 * loading on a busy tablet, the transaction not yet on disk) leaves them there, and the next start stores them
 * (`storeUnstored`): an entry the screen showed is never lost with the page. One key per edit, so that tabs never
 * rewrite each other's entries.
 */
const JOURNAL_PREFIX = 'vers-unstored:';
const journalKey = (db: Pick<VersDb, 'name'>, rows: readonly Activity[]) =>
  `${JOURNAL_PREFIX}${db.name}:${rows[0]?.id ?? ''}`;

/** This page's own edits on their way: not for `storeUnstored`, which is for what a page left behind. */
const inFlight = new Set<string>();

function keepInJournal(db: VersDb, rows: Activity[]): string | undefined {
  const key = journalKey(db, rows);
  try {
    localStorage.setItem(key, JSON.stringify(rows));
    inFlight.add(key);
    return key;
  } catch {
    // No localStorage (a test in Node) or it is full: the edit is stored as before, only without the journal.
    return undefined;
  }
}

/**
 * Stores the edits a page left in the journal without their commit (it was reloaded or closed first), on this thread,
 * once each: an edit found stored already (its commit came after all, or another tab took it) is only taken out of
 * the journal. Runs as the editor opens and as the exchange with the server starts. Answers how many were stored.
 */
export async function storeUnstored(db: VersDb): Promise<number> {
  let keys: string[];
  try {
    keys = Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index) ?? '').filter(
      (key) => key.startsWith(`${JOURNAL_PREFIX}${db.name}:`) && !inFlight.has(key),
    );
  } catch {
    return 0;
  }
  let stored = 0;
  for (const key of keys) {
    let rows: Activity[];
    try {
      rows = JSON.parse(localStorage.getItem(key) ?? '[]') as Activity[];
    } catch {
      localStorage.removeItem(key);
      continue;
    }
    try {
      if (rows.length > 0 && !(await foundStored(db, rows))) {
        await storeHere(db, rows);
        stored++;
      }
      localStorage.removeItem(key);
    } catch (error) {
      // Kept for the next start; the other edits go on.
      console.error('unstored edit not stored', error);
    }
  }
  return stored;
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
    const error = Object.assign(new Error(reply.error.message), { name: reply.error.name });
    // Refused because its rows are there already (another tab stored them from the journal): stored, not failed.
    void foundStored(waiting.db, waiting.rows).then((found) =>
      found ? waiting.resolve({ stored: found, committed: performance.now() }) : waiting.reject(error),
    );
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
export async function storeChangesOffMainThread(db: VersDb, rows: Activity[]): Promise<Stored> {
  const journalled = keepInJournal(db, rows);
  try {
    const stored = await storeAnywhere(db, rows);
    // Out of the journal once committed; a failed edit stays in it, to be stored at the next start.
    if (journalled) localStorage.removeItem(journalled);
    return stored;
  } finally {
    if (journalled) inFlight.delete(journalled);
  }
}

function storeAnywhere(db: VersDb, rows: Activity[]): Promise<Stored> {
  startSaveWorker();
  const running = worker;
  if (!running) return storeHere(db, rows);
  return new Promise<Stored>((resolve, reject) => {
    const id = nextId++;
    unanswered.set(id, { db, rows, resolve, reject });
    const request: SaveRequest = { id, database: db.name, rows };
    running.postMessage(request);
    // A worker whose script never comes (a stalled network without the app's cache) would leave the edit unstored
    // until the next start: after a while the page stores it itself. Should the worker store it after all, one of
    // the two finds the rows there (same ids) and counts them as stored.
    setTimeout(() => {
      if (!unanswered.delete(id)) return;
      console.error('save worker did not answer; the edit is stored on the page itself');
      storeHere(db, rows).then(resolve, reject);
    }, WORKER_PATIENCE_MS);
  });
}
