import {
  ACTIVITY_TYPES,
  type Activity,
  type AttributeValue,
  attributeValue,
  type ActivityType,
  DEFAULT_ACTIVITY_TYPE,
  FIRST_COUNTER_LOCAL,
  foldActivities,
  isFieldChange,
  isUnsent,
  markReverted,
  type OrderState,
  SENT_STATES,
  UNSENT_COUNTER,
  type UndoAction,
  undoLast,
} from '@vers/domain';
import { sessionStore } from '../app/session.ts';
import { deviceId, newUuid } from './device.ts';
import { storeChanges } from './store-changes.ts';
import type { VersDb } from './versdb.ts';

export { newUuid } from './device.ts';

/** The rows of one order, in no particular order (the domain functions sort themselves). */
export function orderRows(db: VersDb, orderId: string): Promise<Activity[]> {
  return db.orderResults.where('orderId').equals(orderId).toArray();
}

export interface Change {
  /** A known id the change must take (a swap the server may hold already); a new one otherwise. */
  id?: string;
  orderId: string;
  /** JSON path of the field (docs/requirements/orders.md#order-keys). */
  key: string;
  /** The new value, or null to delete the key and everything below it (a cleared field, a removed entry). */
  value: AttributeValue['value'] | null;
  /** Only for status changes, whose value is the bare status. */
  activityType?: ActivityType;
  /**
   * The last name written beside the value when the workshop keeps a protocol
   * (docs/requirements/orders.md#protocol-flag).
   */
  modifier?: string;
  /**
   * What the user had seen of the field when the edit began (domain `seenOf`); the conflict rule reads it. Absent
   * for status changes.
   */
  seen?: number;
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
 * The rows of changes as this device records them (docs/requirements/sync.md#data-flow-record), not yet numbered:
 * `storeChanges` gives each its local counter in the transaction that stores it.
 */
export function changeRows(
  db: VersDb,
  changes: readonly Change[],
  /** Whose change it is: only this user's session sends it (orders made on a shared tablet stay apart). */
  owner: number | undefined = sessionStore.get()?.id,
): Activity[] {
  const device = deviceId(db);
  const session = sessionStore.get();
  const author = session ? `${session.firstName} ${session.lastName}`.trim() || session.username : undefined;
  const created = new Date();
  return changes.map((change) => ({
    id: change.id ?? newUuid(),
    orderId: change.orderId,
    key: change.key,
    ...outputValueOf(change, created),
    created: created.toISOString(),
    counter: UNSENT_COUNTER,
    counterLocal: FIRST_COUNTER_LOCAL,
    reverted: false,
    sent: SENT_STATES.UNSENT,
    seen: change.seen ?? null,
    device,
    ...(owner !== undefined ? { owner, authorId: owner } : {}),
    ...(author ? { author } : {}),
  }));
}

/**
 * Records changes locally, unsent, in one transaction on this thread (`storeChanges`): the writes of one user action
 * land together or not at all. The screen never waits for the network: the scheduler sends the rows later. (The
 * editor's edits take `storeChangesOffMainThread` instead.)
 */
export async function recordChanges(
  db: VersDb,
  changes: readonly Change[],
  /** Whose change it is: only this user's session sends it (orders made on a shared tablet stay apart). */
  owner: number | undefined = sessionStore.get()?.id,
): Promise<Activity[]> {
  const started = performance.now();
  const stored = await storeChanges(db, changeRows(db, changes, owner));
  // User Timing: visible in the browser's performance tools.
  performance.measure('vers:save', { start: started, detail: { rows: stored.length } });
  return stored;
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
 * The user's own changes on this device: the only ones their undo takes back
 * (docs/requirements/sync.md#data-flow-undo).
 */
export const ownChange =
  (owner: number | undefined) =>
  (row: Activity): boolean =>
    owner !== undefined && row.owner === owner;

/** What an undo did, and the change it took back (for the message that names its field). */
export type Undone = UndoAction & { change: Activity };

/**
 * Undoes the user's own last change in the order on this device (docs/requirements/sync.md#undo): an unsent row is
 * deleted, as if never made; a sent one is marked reverted and unsent, keeping its server counter, so the next push
 * sends the revert, which names the change by its id. Returns what was done, or null when the user has nothing to undo
 * here: another user's change is never taken back by an undo.
 */
export function undoLastChange(
  db: VersDb,
  orderId: string,
  owner: number | undefined = sessionStore.get()?.id,
): Promise<Undone | null> {
  return db.transaction('rw', db.orderResults, async () => {
    const rows = await orderRows(db, orderId);
    const action = undoLast(rows, ownChange(owner));
    const row = action && rows.find((r) => r.id === action.id);
    if (!action || !row) return null;
    if (action.kind === 'delete') await db.orderResults.delete(action.id);
    else await db.orderResults.put(markReverted(row));
    return { ...action, change: row };
  });
}

/**
 * Reverts one change from the field's history, whoever made it (after the user confirmed whose value it is): marked
 * reverted and unsent, so the next push sends the revert by its id. Only a change the server holds and that is still
 * in effect can be reverted this way; answers false otherwise.
 */
export function revertChange(db: VersDb, activityId: string): Promise<boolean> {
  return db.transaction('rw', db.orderResults, async () => {
    const row = await db.orderResults.get(activityId);
    if (!row || row.reverted || isUnsent(row) || row.sent !== SENT_STATES.SENT || !isFieldChange(row)) return false;
    await db.orderResults.put(markReverted(row));
    return true;
  });
}
