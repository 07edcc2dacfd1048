import {
  type Activity,
  type CreateOrderRequest,
  fromServerActivity,
  isUnsent,
  orderSchema,
  SENT_STATES,
  serverActivitySchema,
  serverFields,
  UNSENT_COUNTER,
} from '@vers/domain';
import { z } from 'zod';
import { ApiFailure, call } from '../app/api.ts';
import { refreshImages } from './images.ts';
import { dropDeletedOrder } from './local-orders.ts';
import { orderRows } from './order-results.ts';
import { deviceIdentity, observedIdentity, sameIdentity, setDeviceIdentity } from './server-identity.ts';
import { exclusiveForOrder, SYNC_CALL, type SyncResult, syncOrder } from './sync.ts';
import type { LocalOrder, VersDb } from './versdb.ts';

/*
 * A server that went back in time (docs/requirements/sync.md#data-flow-restored-server): a restored backup, or an
 * embedded database folder that lost its tail. Acknowledged changes, orders and pictures may be gone from it, and the
 * counters it hands out next may be ones this device already holds for other changes. The device heals by ids, never by
 * counters: what the server lacks is sent again, what it has gives its counter back, and the order's whole log is read
 * again.
 */

export interface HealResult {
  /** Changes the server had lost, queued to be sent again. */
  resent: number;
  /** The order was gone from the server (not deleted by anyone) and was created again. */
  recreated: boolean;
  /** Pictures the server had lost, queued to be uploaded again. */
  pictures: number;
  offline?: true;
  /** The order was deleted on purpose (a tombstone): nothing to heal. */
  deleted?: true;
}

const ORDER_CALL = { ...SYNC_CALL, handles: [...SYNC_CALL.handles] } as const;

/** The creation payload of an order the server lost: the device's own when it made the order, else its list row. */
function recreationRequest(local: LocalOrder): CreateOrderRequest & { id: string } {
  if (local.request)
    return { ...local.request, id: local.id, ...(local.order.number ? { number: local.order.number } : {}) };
  const { order } = local;
  // The order's values come back with its changes, which the device sends again; the request only makes the row.
  const wheelsets = Array.from({ length: 2 }, () => ({ number: '' }));
  return {
    id: order.id,
    type: order.type,
    contractor: order.contractor,
    number: order.number,
    externalOrderNumber: order.externalOrderNumber,
    maintenanceNumber: order.maintenanceNumber,
    ...(order.type === 'WAGON'
      ? { wagon: { number: order.maintenanceNumber, wheelsetsOutgoing: wheelsets } }
      : { wheelset: { number: order.maintenanceNumber } }),
  };
}

/** Makes sure the server has the order; answers whether it had to be created again, or why not. */
async function ensureOrder(db: VersDb, orderId: string): Promise<'there' | 'recreated' | 'deleted' | 'offline'> {
  try {
    await call(`orders/${orderId}`, orderSchema, ORDER_CALL);
    return 'there';
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    if (error.status === 0 || error.status >= 502) return 'offline';
    if (error.status === 404 && error.code === 'DELETED') return 'deleted';
    if (error.status !== 404) throw error;
  }
  const local = await db.orders.get(orderId);
  if (!local) return 'deleted';
  const request = recreationRequest(local);
  const create = (body: CreateOrderRequest) => call('orders', orderSchema, { method: 'POST', body, ...ORDER_CALL });
  let order;
  try {
    order = await create(request);
  } catch (error) {
    // Its number was handed to another order since the backup: the server gives it the next free one.
    if (!(error instanceof ApiFailure && error.status === 409 && request.number)) throw error;
    const { number: _taken, ...rest } = request;
    order = await create(rest);
  }
  await db.orders.put({ ...local, sent: 1, order });
  return 'recreated';
}

/**
 * Heals one order: reads the server's whole log and sets the device's rows by id. A row the server has takes the
 * server's counter; a row it lacks is queued to be sent again (in its old order, before the device's own waiting
 * changes), or dropped if it was one the server appends itself to carry out a revert (the revert sent again makes a
 * new one). The order itself is created again when the server lost it, and its pictures are uploaded again.
 */
export async function healOrder(db: VersDb, orderId: string): Promise<HealResult> {
  const result: HealResult = { resent: 0, recreated: false, pictures: 0 };
  const local = await db.orders.get(orderId);
  if (local?.sent === 0) return result; // never reached the server: sent as usual
  const there = await ensureOrder(db, orderId);
  if (there === 'offline') return { ...result, offline: true };
  if (there === 'deleted') return { ...result, deleted: true };
  result.recreated = there === 'recreated';
  let log: z.infer<typeof serverActivitySchema>[];
  try {
    log = await call(`activity/${orderId}`, z.array(serverActivitySchema), ORDER_CALL);
  } catch (error) {
    if (error instanceof ApiFailure && (error.status === 0 || error.status >= 502)) return { ...result, offline: true };
    throw error;
  }
  result.resent = await exclusiveForOrder(db, orderId, () => reconcile(db, orderId, log));
  const pictures = await refreshImages(db, orderId);
  result.pictures = pictures.resent;
  return result;
}

async function reconcile(db: VersDb, orderId: string, log: z.infer<typeof serverActivitySchema>[]): Promise<number> {
  const onServer = new Map(log.map((activity) => [activity.id, activity]));
  return db.transaction('rw', db.orderResults, async () => {
    const rows = await orderRows(db, orderId);
    const held = new Set(rows.map((row) => row.id));
    const lost = rows
      .filter((row) => !isUnsent(row) && !onServer.has(row.id))
      .filter((row) => row.sent === SENT_STATES.SENT || row.sent === SENT_STATES.UNSENT)
      .sort((a, b) => a.counter - b.counter);
    const waiting = rows.filter((row) => isUnsent(row));
    const lowest = waiting.reduce((low, row) => Math.min(low, row.counterLocal), 0);
    const writes: Activity[] = [];
    const drops: string[] = [];
    for (const [i, row] of lost.entries()) {
      if (row.restores !== undefined && row.restores !== null) {
        drops.push(row.id);
        continue;
      }
      // Sent again as it was, before the device's own waiting changes. An undone one is sent, then reverted.
      writes.push({
        ...row,
        counter: UNSENT_COUNTER,
        counterLocal: lowest - lost.length + i,
        sent: SENT_STATES.UNSENT,
        attempted: row.reverted,
      });
    }
    for (const row of rows) {
      const theirs = onServer.get(row.id);
      if (!theirs || isUnsent(row)) continue;
      const pulled = serverFields(fromServerActivity(theirs));
      // A pending revert keeps waiting (sent 0) under the server's counter for that change.
      writes.push({
        ...row,
        ...pulled,
        ...(row.sent === SENT_STATES.UNSENT ? { sent: row.sent, reverted: true } : {}),
      });
    }
    for (const activity of log) if (!held.has(activity.id)) writes.push(fromServerActivity(activity));
    await db.orderResults.bulkDelete(drops);
    await db.orderResults.bulkPut(writes);
    return writes.filter((row) => row.sent === SENT_STATES.UNSENT && isUnsent(row)).length;
  });
}

/** The orders a device holds server data of: the only ones a lost server could have taken something from. */
async function heldOrders(db: VersDb): Promise<string[]> {
  const ids = new Set<string>();
  await db.orderResults.each((row) => {
    if (!isUnsent(row)) ids.add(row.orderId);
  });
  await db.orderImages
    .where('sent')
    .equals(1)
    .each((image) => ids.add(image.orderId));
  await db.orders
    .where('sent')
    .equals(1)
    .each((order) => {
      if (order.request) ids.add(order.id);
    });
  return [...ids];
}

/**
 * Heals every order the device holds when the server's identity or generation is not the one the device's
 * counters belong to; then the device takes the new identity. A device meeting the server for the first time takes
 * its identity as it is. Answers the orders healed (0 when nothing was to heal), or null offline.
 */
export async function healIfRestored(db: VersDb): Promise<number | null> {
  const current = observedIdentity();
  if (!current) return 0;
  const mine = deviceIdentity(db);
  if (mine && sameIdentity(mine, current)) return 0;
  if (!mine) {
    setDeviceIdentity(db, current);
    return 0;
  }
  const orders = await heldOrders(db);
  for (const orderId of orders) {
    const healed = await healOrder(db, orderId);
    if (healed.offline) return null;
  }
  setDeviceIdentity(db, current);
  return orders.length;
}

/**
 * One exchange of an order as the scheduler runs it: push, pull, and a heal where the server turned out to lack
 * what the device holds (its generation changed, or this order's counters are behind).
 */
export async function exchangeOrder(db: VersDb, orderId: string): Promise<SyncResult> {
  const first = await syncOrder(db, orderId);
  if (first.offline) return first;
  const healedAll = await healIfRestored(db);
  if (healedAll === null) return { ...first, offline: true };
  if (!first.heal && healedAll === 0) return first;
  if (first.heal && healedAll === 0) {
    const healed = await healOrder(db, orderId);
    if (healed.offline) return { ...first, offline: true };
  }
  const again = await syncOrder(db, orderId);
  return { ...again, pushed: first.pushed + again.pushed, pulled: first.pulled + again.pulled };
}

/**
 * Orders the server's list no longer has, of which this device holds changes or pictures (`rememberOrders`): an
 * order someone deleted goes from the device; one the server lost is created again with everything the device holds.
 */
export async function settleGoneOrders(db: VersDb, orderIds: readonly string[]): Promise<void> {
  for (const orderId of orderIds) {
    const healed = await healOrder(db, orderId);
    if (healed.offline) return;
    if (healed.deleted) await dropDeletedOrder(db, orderId);
  }
}
