import type { Activity } from '@vers/domain';
import { Dexie, type ObservabilitySet } from 'dexie';
import { orderRows } from './order-results.ts';
import { type VersDb, versdb } from './versdb.ts';

interface EarlyRead {
  db: VersDb;
  orderId: string;
  rows: Promise<Activity[]>;
  /** A write to the rows' table since the read began: the read may miss it. */
  stale: boolean;
  stop: () => void;
}

let early: EarlyRead | null = null;

/**
 * Starts reading an order's rows as the editor is navigated to (router.tsx), so that IndexedDB reads them while the
 * editor's chunk loads, instead of after it (issue 19: opening an order of 5,000 activities read its rows, ~100 ms,
 * only once the editor had loaded and rendered). Any write to the rows' table from then on, of this tab or another,
 * makes the read stale: the editor then reads again, as it did before.
 */
export function readOrderRowsEarly(orderId: string, db: VersDb = versdb): void {
  dropEarlyOrderRows();
  const rows = orderRows(db, orderId);
  // A failure is met by the editor's own read (takeEarlyOrderRows); this keeps it from being reported as unhandled.
  rows.catch(() => undefined);
  const read: EarlyRead = { db, orderId, rows, stale: false, stop: () => undefined };
  const onMutated = (parts: ObservabilitySet) => {
    if (parts[`idb://${db.name}/orderResults/`]) read.stale = true;
  };
  Dexie.on('storagemutated', onMutated);
  read.stop = () => Dexie.on.storagemutated.unsubscribe(onMutated);
  early = read;
}

/** Forgets an early read nobody took (the editor was not opened after all). */
export function dropEarlyOrderRows(): void {
  early?.stop();
  early = null;
}

/**
 * The order's rows: from the early read when one was started for this order and nothing was written since it began,
 * else read now. An early read is taken once.
 */
export function takeEarlyOrderRows(orderId: string, db: VersDb = versdb): Promise<Activity[]> {
  const read = early;
  dropEarlyOrderRows();
  if (read && read.db === db && read.orderId === orderId && !read.stale) {
    return read.rows.catch(() => orderRows(db, orderId));
  }
  return orderRows(db, orderId);
}
