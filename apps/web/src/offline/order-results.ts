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
  nextCounterLocal,
  type OrderState,
  SENT_STATES,
  UNSENT_COUNTER,
  type UndoAction,
  undoLast,
} from '@vers/domain';
import { sessionStore } from '../app/session.ts';
import { deviceId, newUuid } from './device.ts';
import type { VersDb } from './versdb.ts';

export { newUuid } from './device.ts';

/** The rows of one order, in no particular order (the domain functions sort themselves). */
export function orderRows(db: VersDb, orderId: string): Promise<Activity[]> {
  return db.orderResults.where('orderId').equals(orderId).toArray();
}

export interface Change {
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
 * The next local counter this browser tab expects per order, by database (each tab has its own): a guess that lets an
 * edit's rows be written at once, in the same step as the read that checks them (`recordChanges`).
 */
const expectedNext = new WeakMap<VersDb, Map<string, number>>();

/**
 * Records changes locally, unsent (docs/requirements/sync.md#data-flow-record), in one transaction: the writes of one
 * user action (an entry's creation and its first value) land together or not at all. The screen never waits for the
 * network: the scheduler sends the rows later.
 *
 * Local counters: a change goes on top of the order's waiting rows, with a number none of them has. IndexedDB runs
 * the write transactions of all tabs on this store one after the other, so the order's waiting rows, read inside
 * the transaction, are all there are: two tabs (or two quick edits) never give two changes one number. The rows are
 * numbered from this tab's guess and written at once, beside that read, without waiting for it (an edit then waits
 * for one answer of IndexedDB instead of two, on a main thread busy with the Tab key's focus change and frame); only
 * when the read shows a waiting row at or above the guess (another tab's change, a restore, an import) are they
 * written again, above it. Numbers only rise (a guess above the waiting rows is kept): they order the waiting rows,
 * nothing else.
 */
export async function recordChanges(
  db: VersDb,
  changes: readonly Change[],
  /** Whose change it is: only this user's session sends it (orders made on a shared tablet stay apart). */
  owner: number | undefined = sessionStore.get()?.id,
): Promise<Activity[]> {
  const started = performance.now();
  const device = deviceId(db);
  const session = sessionStore.get();
  const author = session ? `${session.firstName} ${session.lastName}`.trim() || session.username : undefined;
  let guesses = expectedNext.get(db);
  if (!guesses) expectedNext.set(db, (guesses = new Map()));
  const expected = guesses;
  const stored = await db.transaction('rw', db.orderResults, async (transaction) => {
    const created = new Date();
    const orderIds = [...new Set(changes.map((change) => change.orderId))];
    // Both requests go out before either answer is awaited.
    const waiting = Promise.all(orderIds.map((orderId) => waitingRows(db, orderId)));
    const next = new Map(orderIds.map((orderId) => [orderId, expected.get(orderId) ?? FIRST_COUNTER_LOCAL]));
    const rows: Activity[] = changes.map((change) => {
      const counterLocal = next.get(change.orderId)!;
      next.set(change.orderId, counterLocal + 1);
      return {
        id: newUuid(),
        orderId: change.orderId,
        key: change.key,
        ...outputValueOf(change, created),
        created: created.toISOString(),
        counter: UNSENT_COUNTER,
        counterLocal,
        reverted: false,
        sent: SENT_STATES.UNSENT,
        seen: change.seen ?? null,
        device,
        ...(owner !== undefined ? { owner, authorId: owner } : {}),
        ...(author ? { author } : {}),
      };
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
