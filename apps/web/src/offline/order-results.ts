import {
  type Activity,
  type ActivityType,
  DEFAULT_ACTIVITY_TYPE,
  foldActivities,
  markReverted,
  nextCounterLocal,
  type OrderState,
  SENT_STATES,
  UNSENT_COUNTER,
  type UndoAction,
  undoLast,
} from '@vers/domain';
import type { VersDb } from './versdb.ts';

/**
 * A v4 UUID. `crypto.randomUUID` exists only in secure contexts (HTTPS or localhost); a workshop tablet on a plain
 * HTTP intranet address still has `getRandomValues`, so the id is built from that there.
 */
export function newUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The rows of one order, in no particular order (the domain functions sort themselves). */
export function orderRows(db: VersDb, orderId: string): Promise<Activity[]> {
  return db.orderResults.where('orderId').equals(orderId).toArray();
}

export interface Change {
  orderId: string;
  /** JSON path of the field (orders §3). */
  key: string;
  /** The new value; stored as JSON text. `undefined` is stored as null so that the row is always valid JSON. */
  value: unknown;
  activityType?: ActivityType;
}

/**
 * Records one change locally, unsent (DESIGN "Data flow of an edit" step 1). Reading the order's rows and adding
 * the new one happen in one transaction so two quick edits never get the same local counter. The screen never
 * waits for the network: the scheduler sends the row later.
 */
export function recordChange(db: VersDb, change: Change): Promise<Activity> {
  return db.transaction('rw', db.orderResults, async () => {
    const activity: Activity = {
      id: newUuid(),
      orderId: change.orderId,
      key: change.key,
      outputValue: JSON.stringify(change.value ?? null),
      activityType: change.activityType ?? DEFAULT_ACTIVITY_TYPE,
      created: new Date().toISOString(),
      counter: UNSENT_COUNTER,
      counterLocal: nextCounterLocal(await orderRows(db, change.orderId)),
      reverted: false,
      sent: SENT_STATES.UNSENT,
    };
    await db.orderResults.add(activity);
    return activity;
  });
}

/** The order's state as this browser knows it: sent changes in server order, unsent ones on top. */
export async function localState(db: VersDb, orderId: string): Promise<OrderState> {
  return foldActivities(await orderRows(db, orderId));
}

/**
 * Undoes the order's last change (orders §4): an unsent row is deleted, as if never made; a sent one is marked
 * reverted and unsent, keeping its server counter, so the next push sends the revert. Returns what was done, or
 * null when there is nothing to undo.
 */
export function undoLastChange(db: VersDb, orderId: string): Promise<UndoAction | null> {
  return db.transaction('rw', db.orderResults, async () => {
    const rows = await orderRows(db, orderId);
    const action = undoLast(rows);
    if (!action) return null;
    if (action.kind === 'delete') {
      await db.orderResults.delete(action.id);
    } else {
      const row = rows.find((r) => r.id === action.id);
      if (row) await db.orderResults.put(markReverted(row));
    }
    return action;
  });
}
