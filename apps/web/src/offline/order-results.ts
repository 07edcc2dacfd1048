import {
  ACTIVITY_TYPES,
  type Activity,
  type AttributeValue,
  attributeValue,
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
import { sessionStore } from '../app/session.ts';
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
  /** The new value, or null to delete the key and everything below it (a cleared field, a removed entry). */
  value: AttributeValue['value'] | null;
  /** Only for status changes, whose value is the bare status. */
  activityType?: ActivityType;
  /** The last name written beside the value when the workshop keeps a protocol (orders §6). */
  modifier?: string;
}

function outputValueOf(change: Change, created: Date): { outputValue: string; activityType: ActivityType } {
  if (change.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) {
    return { outputValue: JSON.stringify(change.value), activityType: change.activityType };
  }
  if (change.value === null) return { outputValue: 'null', activityType: ACTIVITY_TYPES.XML_DELETE };
  return {
    outputValue: JSON.stringify(attributeValue(change.value, created, change.modifier)),
    activityType: change.activityType ?? DEFAULT_ACTIVITY_TYPE,
  };
}

/**
 * Records changes locally, unsent (DESIGN "Data flow of an edit" step 1), in one transaction: reading the order's
 * rows and adding the new ones together, so two quick edits never get the same local counter, and the writes of
 * one user action (an entry's creation and its first value) land together or not at all. The screen never waits
 * for the network: the scheduler sends the rows later.
 */
export async function recordChanges(
  db: VersDb,
  changes: readonly Change[],
  /** Whose change it is: only this user's session sends it (orders made on a shared tablet stay apart). */
  owner: number | undefined = sessionStore.get()?.id,
): Promise<Activity[]> {
  const started = performance.now();
  const stored = await db.transaction('rw', db.orderResults, async () => {
    const created = new Date();
    const next = new Map<string, number>();
    const rows: Activity[] = [];
    for (const change of changes) {
      const counterLocal = next.get(change.orderId) ?? nextCounterLocal(await waitingRows(db, change.orderId));
      next.set(change.orderId, counterLocal + 1);
      rows.push({
        id: newUuid(),
        orderId: change.orderId,
        key: change.key,
        ...outputValueOf(change, created),
        created: created.toISOString(),
        counter: UNSENT_COUNTER,
        counterLocal,
        reverted: false,
        sent: SENT_STATES.UNSENT,
        ...(owner !== undefined ? { owner } : {}),
      });
    }
    await db.orderResults.bulkAdd(rows);
    return rows;
  });
  // User Timing: visible in the browser's performance tools, and read by the save benchmark (bench/).
  performance.measure('vers:save', { start: started, detail: { rows: stored.length } });
  return stored;
}

/**
 * The order's rows still waiting to be sent. The local counter only orders these (sent rows go by the server's
 * counter), so the next one is found from them alone, without reading the whole order.
 */
function waitingRows(db: VersDb, orderId: string): Promise<Activity[]> {
  return db.orderResults.where('[sent+orderId]').equals([SENT_STATES.UNSENT, orderId]).toArray();
}

export async function recordChange(db: VersDb, change: Change): Promise<Activity> {
  const [row] = await recordChanges(db, [change]);
  return row!;
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
