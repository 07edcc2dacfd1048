import { type Activity, FIRST_COUNTER_LOCAL, nextCounterLocal, SENT_STATES } from '@vers/domain';
import type { VersDb } from './versdb.ts';

/*
 * Storing an edit's rows: the part of recording a change that only IndexedDB takes part in. It imports nothing of the
 * page (no session, no local storage), so that the save worker (save-worker.ts) runs it as the page does.
 */

/**
 * The next local counter expected per order, by database connection (each tab, and each tab's save worker, has its
 * own): a guess that lets an edit's rows be written at once, in the same step as the read that checks them.
 */
const expectedNext = new WeakMap<VersDb, Map<string, number>>();

/**
 * Stores rows of changes (`changeRows`) in one transaction: the writes of one user action (an entry's creation and its
 * first value) land together or not at all.
 *
 * Local counters: a change goes on top of the order's waiting rows, with a number none of them has. IndexedDB runs
 * the write transactions of all tabs and workers on this store one after the other, so the order's waiting rows, read
 * inside the transaction, are all there are: two tabs (or two quick edits, or the page and its worker) never give two
 * changes one number. The rows are numbered from this connection's guess and written at once, beside that read,
 * without waiting for it; only when the read shows a waiting row at or above the guess (another tab's change, a
 * restore, an import) are they written again, above it. Numbers only rise (a guess above the waiting rows is kept):
 * they order the waiting rows, nothing else.
 */
export async function storeChanges(db: VersDb, drafts: readonly Activity[]): Promise<Activity[]> {
  let guesses = expectedNext.get(db);
  if (!guesses) expectedNext.set(db, (guesses = new Map()));
  const expected = guesses;
  return db.transaction('rw', db.orderResults, async (transaction) => {
    const orderIds = [...new Set(drafts.map((row) => row.orderId))];
    // Both requests go out before either answer is awaited.
    const waiting = Promise.all(orderIds.map((orderId) => waitingRows(db, orderId)));
    const next = new Map(orderIds.map((orderId) => [orderId, expected.get(orderId) ?? FIRST_COUNTER_LOCAL]));
    const rows: Activity[] = drafts.map((draft) => {
      const counterLocal = next.get(draft.orderId)!;
      next.set(draft.orderId, counterLocal + 1);
      return { ...draft, counterLocal };
    });
    const added = db.orderResults.bulkAdd(rows);
    // Taken at once: a second edit started before this one commits guesses above it.
    const reserve = () => {
      for (const row of rows) expected.set(row.orderId, Math.max(expected.get(row.orderId) ?? 0, row.counterLocal + 1));
    };
    reserve();
    const renumbered: Activity[] = [];
    const ids = new Set(rows.map((row) => row.id));
    for (const [i, found] of (await waiting).entries()) {
      const orderId = orderIds[i]!;
      const mine = rows.filter((row) => row.orderId === orderId);
      const shift = nextCounterLocal(found.filter((row) => !ids.has(row.id))) - mine[0]!.counterLocal;
      if (shift > 0)
        for (const row of mine) renumbered.push(Object.assign(row, { counterLocal: row.counterLocal + shift }));
    }
    reserve();
    const moved = renumbered.length > 0 ? db.orderResults.bulkPut(renumbered) : undefined;
    // Every request of the edit is out: the transaction commits without waiting for their answers to reach this
    // (busy) thread first. It still completes only once all of them succeeded and the data is on disk. (A browser
    // without commit(), before 2020, commits by itself once the answers arrived.)
    transaction.idbtrans.commit?.();
    await Promise.all([added, moved]);
    return rows;
  });
}

/**
 * The order's rows still waiting to be sent. The local counter only orders these (sent rows go by the server's
 * counter), so the next one is found from them alone, without reading the whole order.
 */
export function waitingRows(db: VersDb, orderId: string): Promise<Activity[]> {
  return db.orderResults.where('[sent+orderId]').equals([SENT_STATES.UNSENT, orderId]).toArray();
}
