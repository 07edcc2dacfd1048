import { type CreateOrderRequest, type Order, ORDER_STATUSES, SENT_STATES, normalizeVehicleNumber } from '@vers/domain';
import { sessionStore } from '../app/session.ts';
import type { VersDb } from './versdb.ts';

/**
 * Keeps the server's order list on the device, so the list and the editor work without a network. With the
 * complete list (no search), synced orders the server no longer has are removed locally (orders §4 "Order sync
 * flag") — unless changes to them still wait to be sent: those are kept, nothing entered is dropped unseen.
 */
export async function rememberOrders(db: VersDb, orders: readonly Order[], complete: boolean): Promise<void> {
  await db.transaction('rw', db.orders, db.orderResults, async () => {
    const now = new Date().toISOString();
    await db.orders.bulkPut(orders.map((order) => ({ id: order.id, sent: 1 as const, order, created: now })));
    if (!complete) return;
    const onServer = new Set(orders.map((order) => order.id));
    const gone = (await db.orders.where('sent').equals(1).primaryKeys()).filter((id) => !onServer.has(id));
    for (const id of gone) {
      const waiting = await db.orderResults.where('[sent+orderId]').equals([SENT_STATES.UNSENT, id]).count();
      if (waiting > 0) continue;
      await db.orders.delete(id);
      await db.orderResults.where('orderId').equals(id).delete();
    }
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
 * An order the server could not take now (no network, or a 5xx answer, orders §7): kept on the device with status
 * CREATED and sync flag 0, with its creation payload, which the scheduler posts later.
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
