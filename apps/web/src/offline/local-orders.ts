import { type CreateOrderRequest, type Order, ORDER_STATUSES, SENT_STATES, normalizeVehicleNumber } from '@vers/domain';
import { sessionStore } from '../app/session.ts';
import type { VersDb } from './versdb.ts';

/**
 * Keeps the server's order list on the device, so the list and the editor work without a network. With the
 * complete list (no search), synced orders the server no longer has are removed locally
 * (docs/requirements/sync.md#order-sync-flag) when the device holds nothing of them but the list row. An order the
 * device holds changes or pictures of is answered instead, for `settleGoneOrders`: deleted on purpose, it goes; lost by
 * the server (a restored backup), it is sent again. Nothing entered is dropped unseen.
 */
export async function rememberOrders(db: VersDb, orders: readonly Order[], complete: boolean): Promise<string[]> {
  return db.transaction('rw', db.orders, db.orderResults, db.orderImages, async () => {
    const now = new Date().toISOString();
    // Orders created on this device keep their creation payload (kept to create them again after a restore).
    const kept = await db.orders.bulkGet(orders.map((order) => order.id));
    await db.orders.bulkPut(
      orders.map((order, i) => ({
        ...(kept[i]?.request ? { request: kept[i].request } : {}),
        ...(kept[i]?.owner !== undefined ? { owner: kept[i].owner } : {}),
        id: order.id,
        sent: 1 as const,
        order,
        created: now,
      })),
    );
    if (!complete) return [];
    const onServer = new Set(orders.map((order) => order.id));
    const gone = (await db.orders.where('sent').equals(1).primaryKeys()).filter((id) => !onServer.has(id));
    const held: string[] = [];
    for (const id of gone) {
      const rows = await db.orderResults.where('orderId').equals(id).count();
      const pictures = await db.orderImages.where('orderId').equals(id).count();
      if (rows > 0 || pictures > 0) {
        held.push(id);
        continue;
      }
      await db.orders.delete(id);
    }
    return held;
  });
}

/**
 * Drops an order someone deleted, with everything the device holds of it, unless changes to it still wait to be
 * sent (those stay, shown as not applied).
 */
export async function dropDeletedOrder(db: VersDb, orderId: string): Promise<void> {
  await db.transaction('rw', db.orders, db.orderResults, db.orderImages, async () => {
    const waiting = await db.orderResults.where('[sent+orderId]').equals([SENT_STATES.UNSENT, orderId]).count();
    if (waiting > 0) return;
    await db.orders.delete(orderId);
    await db.orderResults.where('orderId').equals(orderId).delete();
    await db.orderImages.where('orderId').equals(orderId).delete();
  });
}

/** The orders on this device matching a wagon or wheelset number search, newest first; unsent ones flagged. */
export async function localOrders(db: VersDb, search = ''): Promise<{ order: Order; sent: 0 | 1 }[]> {
  const needle = normalizeVehicleNumber(search).toLowerCase();
  const rows = await db.orders.toArray();
  return rows
    .filter((row) => !needle || `${row.order.maintenanceNumber} ${row.order.number}`.toLowerCase().includes(needle))
    .sort((a, b) => (a.order.created < b.order.created ? 1 : -1))
    .map((row) => ({ order: row.order, sent: row.sent }));
}

/**
 * An order the server could not take now (no network, or a 5xx answer, docs/requirements/sync.md#order-sync-flag): kept
 * on the device with status CREATED and sync flag 0, with its creation payload, which the scheduler posts later.
 */
export async function createOrderLocally(
  db: VersDb,
  request: CreateOrderRequest & { id: string },
  owner: number | undefined = sessionStore.get()?.id,
): Promise<Order> {
  const maintenanceNumber = normalizeVehicleNumber(request.maintenanceNumber);
  const created = new Date().toISOString();
  const order: Order = {
    id: request.id,
    number: '',
    externalOrderNumber: request.externalOrderNumber ?? '',
    maintenanceNumber,
    contractor: request.contractor ?? '',
    type: request.type,
    status: ORDER_STATUSES.CREATED,
    created,
    importedDate: null,
    assetId: null,
    wagonNumber: request.type === 'WAGON' ? maintenanceNumber : null,
    wheelsetNumber: request.type === 'WHEELSET' ? maintenanceNumber : null,
    lastCounter: 0,
  };
  await db.orders.put({ id: request.id, sent: 0, order, request, created, ...(owner !== undefined ? { owner } : {}) });
  return order;
}
