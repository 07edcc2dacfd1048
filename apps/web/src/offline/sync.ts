import {
  ACTIVITY_TYPES,
  type Activity,
  type ActivityPushResult,
  activityLastSchema,
  contiguousCounter,
  activityPushResultSchema,
  fromServerActivity,
  isUnsent,
  orderSchema,
  parseOutputValue,
  type Refusal,
  SENT_STATES,
  type ServerActivity,
  isServerActivityList,
  serverFields,
  toPush,
} from '@vers/domain';
import { z } from 'zod';
import { ApiFailure, call } from '../app/api.ts';
import { isOwnWork } from './own-work.ts';

export { isOwnWork };
import { orderRows } from './order-results.ts';
import { waitingRows } from './store-changes.ts';
import { deviceIdentity, noteIdentity } from './server-identity.ts';
import type { VersDb } from './versdb.ts';

/** Changes per `POST activity/batch`: small enough for the body limit, large enough for a day offline. */
export const BATCH_SIZE = 200;

/**
 * Statuses background sync handles itself, so it never shows snackbars or jumps to the login while the user
 * edits: the outcome is reported in the result instead. 401 is left to the global reaction on purpose: an
 * expired session needs a new sign-in, and the unsent rows wait for it.
 */
const HANDLES = [0, 400, 403, 404, 409, 413, 422, 500, 502, 503, 504] as const;

/**
 * A sync call that hangs (a half-open connection in a steel shed) counts as a lost connection after this long;
 * the rows stay unsent and the next tick sends them again (the server recognises the ids).
 */
export const SYNC_CALL_TIMEOUT_MS = 60_000;
export const SYNC_CALL = { handles: HANDLES, timeoutMs: SYNC_CALL_TIMEOUT_MS } as const;

export interface SyncResult {
  /** Changes (and reverts) the server accepted in this run. */
  pushed: number;
  /** Rows written from the server. */
  pulled: number;
  /** The server could not be reached (or a gateway answered for it): nothing changed locally. */
  offline?: true;
  /** The order is done (409 ORDER_READ_ONLY): its changes stay unsent, nothing is lost. */
  readOnly?: true;
  /** The server does not know the order (404): its unsent rows were marked sent 2. */
  unknownOrder?: true;
  /** The order itself was created offline and is not on the server yet: nothing was sent for it. */
  orderUnsent?: true;
  /** Any other failure (status) of a call; the rows it concerned stay unsent. */
  failed?: number;
  /** Changes the server refused for good (400): kept as sent 3 with the reason, never lost silently. */
  refused?: number;
  /** A change the server refused as not fitting the field catalogue (400 INCOMPATIBLE_TYPE): its key. */
  incompatibleKey?: string;
  /**
   * The server lacks what this device holds of the order (its counters are behind, or a counter holds another
   * change than the device's): the order must be healed (restore.ts) before its counters are trusted again.
   */
  heal?: true;
}

type Outcome = Omit<SyncResult, 'pushed' | 'pulled'>;

/** What a failed call means for the sync; anything but an ApiFailure is a local fault and is thrown on. */
function outcomeOf(error: unknown): Outcome {
  if (!(error instanceof ApiFailure)) throw error;
  if (error.status === 0 || error.status >= 502) return { offline: true };
  if (error.status === 404) return { unknownOrder: true };
  if (error.status === 401) return { failed: 401 };
  if (error.status === 409 && error.code === 'ORDER_READ_ONLY') return { readOnly: true };
  const key = error.code === 'INCOMPATIBLE_TYPE' ? error.fields[0] : undefined;
  return key ? { failed: error.status, incompatibleKey: key } : { failed: error.status };
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs one sync step after the previous one for the same key has ended. The scheduler and a manual exchange may
 * overlap; two pushes of the same rows at once would be harmless for the server (ids are idempotent) but would
 * race on the local rows.
 */
function exclusive<T>(key: string, step: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(step);
  queues.set(key, next);
  void next
    .catch(() => undefined)
    .finally(() => {
      if (queues.get(key) === next) queues.delete(key);
    });
  return next;
}

const orderKey = (db: VersDb, orderId: string) => `${db.name}\u0000${orderId}`;

/** Runs a step on an order's rows after every other sync step of that order has ended. */
export function exclusiveForOrder<T>(db: VersDb, orderId: string, step: () => Promise<T>): Promise<T> {
  return exclusive(orderKey(db, orderId), step);
}

/** The order's rows waiting for the server that this session may send. */
async function ownUnsentRows(db: VersDb, orderId: string): Promise<Activity[]> {
  return (await waitingRows(db, orderId)).filter((row) => isOwnWork(row));
}

function refusalOf(error: ApiFailure): Refusal {
  return { status: error.status, code: error.code, message: error.message, at: new Date().toISOString() };
}

/** A refusal for good: the same request would be refused again (a value, a path or a body the server rejects). */
function isFinalRefusal(error: unknown): error is ApiFailure {
  return error instanceof ApiFailure && (error.status === 400 || error.status === 413 || error.status === 422);
}

/**
 * A status change the user's roles do not allow (403, e.g. rights taken away while offline): set aside like a
 * refused value, so the changes after it still go. A 403 on field changes means no access to the order at all
 * and stops the push instead.
 */
function isRefusedStatusChange(error: unknown, group: readonly Activity[]): error is ApiFailure {
  return (
    error instanceof ApiFailure &&
    error.status === 403 &&
    group.length === 1 &&
    group[0]?.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION
  );
}

/**
 * 404: the server does not know the order. Its waiting rows are kept (nothing is deleted) but skipped, with the
 * reason beside them for the user.
 */
function markOrderUnknown(db: VersDb, orderId: string, error: unknown): Promise<number> {
  const refusal = error instanceof ApiFailure ? refusalOf(error) : undefined;
  return db.orderResults
    .where('[sent+orderId]')
    .equals([SENT_STATES.UNSENT, orderId])
    .filter((row) => isOwnWork(row))
    .modify({ sent: SENT_STATES.ORDER_UNKNOWN, ...(refusal ? { refusal } : {}) });
}

/**
 * 409 for a done order: the changes stay unsent (the order may be reopened) and carry the reason, so the user
 * sees why they wait.
 */
function markReadOnly(db: VersDb, orderId: string, error: ApiFailure): Promise<number> {
  const refusal = refusalOf(error);
  return db.orderResults
    .where('[sent+orderId]')
    .equals([SENT_STATES.UNSENT, orderId])
    .filter((row) => isOwnWork(row))
    .modify({ refusal });
}

/**
 * Noted before a push leaves, in one transaction with a fresh read of the rows: from then on an undo of these
 * changes must also reach the server. A change undone (deleted) since the rows were read is left out, so it is
 * never sent — without this, an undo between the read and the send, followed by a lost answer, would leave the
 * change on the server and nowhere here. Answers the rows to send.
 */
async function markAttempted(db: VersDb, rows: readonly Activity[]): Promise<Activity[]> {
  return db.transaction('rw', db.orderResults, async () => {
    const current = await db.orderResults.bulkGet(rows.map((row) => row.id));
    const present = current.filter((row): row is Activity => row?.sent === SENT_STATES.UNSENT);
    const fresh = present.filter((row) => !row.attempted);
    if (fresh.length > 0) {
      await db.orderResults.bulkUpdate(fresh.map((row) => ({ key: row.id, changes: { attempted: true } })));
    }
    return present.map((row) => ({ ...row, attempted: true }));
  });
}

/** One change the server refused for good: kept as sent 3 with the reason, out of the way of the others. */
async function refuse(db: VersDb, row: Activity, error: ApiFailure): Promise<void> {
  await db.orderResults.update(row.id, { sent: SENT_STATES.REFUSED, refusal: refusalOf(error) });
}

/**
 * Stores the server's answers to pushed rows in one transaction. A row deleted meanwhile was undone by the user
 * while its push was under way: the server has it now, so it comes back as a pending revert (unless the whole
 * order was deleted locally) — otherwise the next pull would bring the undone value back.
 */
async function applyPushResults(db: VersDb, pushed: readonly Activity[], results: readonly ActivityPushResult[]) {
  const byId = new Map(results.map((result) => [result.id, result]));
  await db.transaction('rw', db.orderResults, db.orders, async () => {
    // One read and one write for the whole batch: per-row reads and writes took longer than the network.
    const answered = pushed.filter((row) => byId.has(row.id));
    const current = await db.orderResults.bulkGet(answered.map((row) => row.id));
    const updated: Activity[] = [];
    for (const [i, row] of answered.entries()) {
      const result = byId.get(row.id)!;
      const serverFields = { counter: result.co, lastModified: result.lm, lastModifier: result.mod };
      const stored = current[i];
      if (stored) {
        // A reason kept from an earlier refusal (a done order since reopened) no longer applies. A change undone
        // while its push was under way stays a pending revert, now with its server counter.
        const { refusal: _settled, ...kept } = stored;
        updated.push({ ...kept, ...serverFields, sent: stored.reverted ? SENT_STATES.UNSENT : SENT_STATES.SENT });
      } else if (
        row.activityType !== ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION &&
        ((await db.orders.get(row.orderId)) || (await db.orderResults.where('orderId').equals(row.orderId).count()) > 0)
      ) {
        updated.push({ ...row, ...serverFields, reverted: true, sent: SENT_STATES.UNSENT });
      }
    }
    await db.orderResults.bulkPut(updated);
  });
}

/**
 * Splits the waiting changes, in local order, into runs for `POST activity/batch` and single status changes: the
 * batch refuses status changes, which go through `POST orders/{id}/status` with their own id
 * (docs/requirements/sync.md#data-flow-status).
 */
function sendGroups(rows: readonly Activity[]): Activity[][] {
  const groups: Activity[][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    const isStatus = row.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION;
    const lastIsStatus = last?.[0]?.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION;
    if (!last || isStatus || lastIsStatus || last.length >= BATCH_SIZE) groups.push([row]);
    else last.push(row);
  }
  return groups;
}

function sendGroup(orderId: string, group: readonly Activity[]): Promise<ActivityPushResult[]> {
  const first = group[0];
  if (first && first.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) {
    const status = parseOutputValue(first.outputValue);
    return call(`orders/${orderId}/status`, activityPushResultSchema, {
      method: 'POST',
      body: { id: first.id, status },
      ...SYNC_CALL,
    }).then((result) => [result]);
  }
  if (group.length === 1) {
    return call('activity', activityPushResultSchema, { method: 'POST', body: toPush(group[0]!), ...SYNC_CALL }).then(
      (result) => [result],
    );
  }
  return call('activity/batch', z.array(activityPushResultSchema), {
    method: 'POST',
    body: { activities: group.map(toPush) },
    ...SYNC_CALL,
  });
}

/**
 * Sends the order's waiting rows (docs/requirements/sync.md#activity-lifecycle): new changes in local order, in
 * batches, then reverts. Each answer is stored before the next call, so a broken connection loses at most one answer,
 * and resending is safe: the server answers a repeated id with its first result.
 */
export function pushOrderResults(db: VersDb, orderId: string): Promise<SyncResult> {
  return exclusive(orderKey(db, orderId), async () => {
    // An order created offline is unknown to the server until sent: pushing now would answer 404 and park
    // its changes as "order unknown" for good.
    if ((await db.orders.get(orderId))?.sent === 0) return { pushed: 0, pulled: 0, orderUnsent: true };
    let pushed = 0;
    let refused = 0;
    let incompatibleKey: string | undefined;
    const fail = async (error: unknown): Promise<SyncResult> => {
      const outcome = outcomeOf(error);
      if (outcome.unknownOrder) await markOrderUnknown(db, orderId, error);
      if (outcome.readOnly && error instanceof ApiFailure) await markReadOnly(db, orderId, error);
      return { pushed, pulled: 0, ...outcome, ...(refused ? { refused } : {}) };
    };

    // New changes, and undone ones whose earlier push may have reached the server (sent again: the server
    // answers a known id with its first result; then the revert follows below).
    const fresh = (await ownUnsentRows(db, orderId))
      .filter((row) => isUnsent(row) && (!row.reverted || row.attempted))
      .sort((a, b) => a.counterLocal - b.counterLocal);
    // A refused batch is sent again one change at a time, so the one bad change is set aside with its reason
    // and the others still go, in their order.
    const pending = sendGroups(fresh);
    for (let planned = pending.shift(); planned; planned = pending.shift()) {
      const group = await markAttempted(db, planned);
      if (group.length === 0) continue;
      let results: ActivityPushResult[];
      try {
        results = await sendGroup(orderId, group);
      } catch (error) {
        if (!isFinalRefusal(error) && !isRefusedStatusChange(error, group)) return fail(error);
        if (group.length > 1) {
          pending.unshift(...group.map((row) => [row]));
          continue;
        }
        await refuse(db, group[0]!, error);
        refused += 1;
        if (error.code === 'INCOMPATIBLE_TYPE') incompatibleKey ??= error.fields[0];
        continue;
      }
      await applyPushResults(db, group, results);
      pushed += results.length;
    }
    const refusedPart = refused ? { refused, ...(incompatibleKey ? { incompatibleKey } : {}) } : {};

    // Read again: a row undone during the pushes above may have become a pending revert. Newest first, the way
    // the user undid them; the server derives the restored value from what stands, so the order only matters
    // for readability of its log.
    const reverts = (await ownUnsentRows(db, orderId))
      .filter((row) => !isUnsent(row) && row.reverted)
      .sort((a, b) => b.counter - a.counter);
    for (const row of reverts) {
      try {
        // Named by id: the server refuses when the counter now holds another change (a restored backup).
        await call(`activity/${orderId}/${row.counter}/reverted`, activityPushResultSchema, {
          method: 'PATCH',
          body: { id: row.id },
          ...SYNC_CALL,
        });
      } catch (error) {
        if (error instanceof ApiFailure && error.code === 'REVERT_TARGET_MOVED') {
          return { pushed, pulled: 0, heal: true, ...refusedPart };
        }
        return fail(error);
      }
      // The server appended a new activity with the restored value; the pull after the push fetches it.
      await db.orderResults.update(row.id, { sent: SENT_STATES.SENT });
      pushed += 1;
    }
    return { pushed, pulled: 0, ...refusedPart };
  });
}

/**
 * A pull's answer, checked in place: a malformed answer is refused (BAD_RESPONSE) and nothing of it is stored. The
 * same rule as `z.array(serverActivitySchema)` without zod's copy of every row (domain: `isServerActivityList`).
 */
const pulledActivities = z.custom<ServerActivity[]>(isServerActivityList);

/** From this many pulled activities of one order on, the order's rows are read in one go instead of one by one. */
const READ_WHOLE_ORDER_FROM = 200;

/**
 * The rows this browser has of the pulled activities, by id. A large pull (a first load, a heal) reads the order's
 * rows through the order index in one request; IndexedDB answers a `bulkGet` of 10,000 ids with 10,000 gets, which
 * made such a pull cost more than twice the writing of its rows. A small pull asks for its few ids.
 */
async function localRowsOf(db: VersDb, incoming: readonly ServerActivity[]): Promise<Map<string, Activity>> {
  const orderId = incoming[0]?.oI;
  if (incoming.length >= READ_WHOLE_ORDER_FROM && incoming.every((activity) => activity.oI === orderId)) {
    const rows = await db.orderResults.where('orderId').equals(orderId!).toArray();
    return new Map(rows.map((row) => [row.id, row]));
  }
  const rows = await db.orderResults.bulkGet(incoming.map((activity) => activity.id));
  return new Map(rows.flatMap((row) => (row ? [[row.id, row] as const] : [])));
}

/**
 * Writes pulled activities in one transaction and answers how many rows changed. A row this browser already has keeps its local fields and takes the
 * server's counter, times, modifier and reverted flag; a row still waiting to be sent (sent 0, e.g. a pending
 * revert or a push whose answer was lost) is never overwritten: the next push settles it.
 */
async function mergeServerActivities(db: VersDb, incoming: readonly ServerActivity[]): Promise<number> {
  return db.transaction('rw', db.orderResults, async () => {
    const existing = await localRowsOf(db, incoming);
    const rows: Activity[] = [];
    incoming.forEach((activity) => {
      const local = existing.get(activity.id);
      if (local?.sent === SENT_STATES.UNSENT) return;
      const pulled = fromServerActivity(activity);
      if (!local) rows.push(pulled);
      // Rows this browser pushed itself usually match already; only real changes are written and counted.
      else if (JSON.stringify(serverFields(local)) !== JSON.stringify(serverFields(pulled)))
        rows.push({ ...local, ...serverFields(pulled) });
    });
    await db.orderResults.bulkPut(rows);
    return rows.length;
  });
}

/**
 * Fetches what the server has beyond this browser's activities (docs/requirements/sync.md#data-flow-pull). The device
 * says what it holds (the counter up to which it has every change, the id of the change at that counter, its
 * generation), so the server notices when it lost acknowledged changes; a server behind the device asks for a heal.
 */
export function pullOrderResults(db: VersDb, orderId: string): Promise<SyncResult> {
  return exclusive(orderKey(db, orderId), async () => {
    try {
      const rows = await orderRows(db, orderId);
      const known = contiguousCounter(rows);
      const knownId = rows.find((row) => row.counter === known)?.id;
      const generation = deviceIdentity(db)?.generation;
      const query = new URLSearchParams({
        known: String(known),
        ...(knownId ? { knownId } : {}),
        ...(generation !== undefined ? { generation: String(generation) } : {}),
      });
      const answer = await call(`activity/${orderId}/last?${query.toString()}`, activityLastSchema, SYNC_CALL);
      const { last } = answer;
      if (answer.database && answer.generation !== undefined) {
        noteIdentity({ database: answer.database, generation: answer.generation });
      }
      if (last < known) return { pushed: 0, pulled: 0, heal: true };
      if (last === known) return { pushed: 0, pulled: 0 };
      const started = performance.now();
      const path = `activity/${orderId}?after=${known}`;
      const incoming = await call(path, pulledActivities, SYNC_CALL);
      const fetched = performance.now();
      const pulled = await mergeServerActivities(db, incoming);
      // User Timing for the browser's performance tools and the pull benchmark (bench/): the whole pull, and its
      // parts: the server's answer (fetched and checked) and the merge into IndexedDB. When the browser kept the
      // call's Resource Timing, `responseMs` is the part until the answer's last byte arrived (server and network);
      // the rest of `fetchMs` is the browser reading and checking it, or waiting for the main thread.
      const response = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime >= started && entry.name.endsWith(`/${path}`))
        .at(-1) as PerformanceResourceTiming | undefined;
      performance.measure('vers:pull', {
        start: started,
        detail: {
          rows: incoming.length,
          fetchMs: fetched - started,
          mergeMs: performance.now() - fetched,
          ...(response ? { responseMs: response.responseEnd - started } : {}),
        },
      });
      return { pushed: 0, pulled };
    } catch (error) {
      return { pushed: 0, pulled: 0, ...outcomeOf(error) };
    }
  });
}

/**
 * Push, then pull. A read-only order or a refused change still pulls (others' changes and the status matter);
 * offline, an unknown order or an order not yet on the server stop after the push.
 */
export async function syncOrder(db: VersDb, orderId: string): Promise<SyncResult> {
  const push = await pushOrderResults(db, orderId);
  if (push.offline || push.unknownOrder || push.orderUnsent) return push;
  const pull = await pullOrderResults(db, orderId);
  return { ...push, ...pull, pushed: push.pushed };
}

export interface OrdersSendResult {
  /** Orders the server now has. */
  sent: number;
  offline?: true;
  /** Ids of orders the server refused (e.g. 400); they stay unsent with their payload. */
  failed: string[];
}

/**
 * Sends orders created offline (docs/requirements/sync.md#order-sync-flag). The row keeps its creation payload; the
 * server answers a repeated id with the same order, so a retry after a lost answer creates nothing twice.
 */
export function sendUnsentOrders(db: VersDb): Promise<OrdersSendResult> {
  return exclusive(`${db.name}\u0000orders`, async () => {
    const result: OrdersSendResult = { sent: 0, failed: [] };
    for (const row of await db.orders.where('sent').equals(0).toArray()) {
      if (!row.request || !isOwnWork(row)) continue; // no payload: such a row can only come from an older version
      try {
        const order = await call('orders', orderSchema, {
          method: 'POST',
          body: { ...row.request, id: row.id },
          ...SYNC_CALL,
        });
        const { refusal: _settled, ...kept } = row;
        await db.orders.put({ ...kept, sent: 1, order });
        result.sent += 1;
      } catch (error) {
        const outcome = outcomeOf(error);
        if (outcome.offline) return { ...result, offline: true };
        // Kept unsent and sent again at the next exchange; a refusal (4xx) is kept beside it for the user, a
        // server fault (5xx) is passing and says nothing about the order.
        if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) {
          await db.orders.update(row.id, { refusal: refusalOf(error) });
        }
        result.failed.push(row.id);
      }
    }
    return result;
  });
}

export interface WaitingSendResult {
  pushed: number;
  refused: number;
  offline?: true;
}

/**
 * Sends the waiting changes of every order on the device, not only the open one: work left in an order closed
 * while offline must not wait until someone opens that order again. Orders not yet on the server are skipped
 * (sendUnsentOrders sends them first).
 */
export async function pushWaitingOrders(db: VersDb): Promise<WaitingSendResult> {
  const rows = await db.orderResults.where('sent').equals(SENT_STATES.UNSENT).toArray();
  const orderIds = [...new Set(rows.filter((row) => isOwnWork(row)).map((row) => row.orderId))];
  const result: WaitingSendResult = { pushed: 0, refused: 0 };
  for (const orderId of orderIds) {
    const push = await pushOrderResults(db, orderId);
    result.pushed += push.pushed;
    result.refused += push.refused ?? 0;
    if (push.offline) return { ...result, offline: true };
  }
  return result;
}
