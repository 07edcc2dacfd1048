import {
  type CreateOrderRequest,
  type Order,
  type OrderPageQuery,
  type OrderStatus,
  ORDER_STATUSES,
  SENT_STATES,
  compareOrders,
  normalizeVehicleNumber,
  orderSearchNeedle,
  openSince,
  statusesOf,
} from '@vers/domain';
import { sessionStore } from '../app/session.ts';
import type { VersDb } from './versdb.ts';

/**
 * Drops an order someone deleted (or that this device no longer keeps), with everything the device holds of it,
 * unless changes to it still wait to be sent (those stay, shown as not applied). Answers whether it went.
 */
export async function dropDeletedOrder(db: VersDb, orderId: string): Promise<boolean> {
  return db.transaction('rw', db.orders, db.orderResults, db.orderImages, async () => {
    const waiting = await db.orderResults.where('[sent+orderId]').equals([SENT_STATES.UNSENT, orderId]).count();
    if (waiting > 0) return false;
    await db.orders.delete(orderId);
    await db.orderResults.where('orderId').equals(orderId).delete();
    await db.orderImages.where('orderId').equals(orderId).delete();
    return true;
  });
}

export interface LocalOrderRow {
  order: Order;
  sent: 0 | 1;
}

/**
 * The orders on this device that a search and a status filter find (the domain's rules, as the server applies them),
 * in the list's order, orders not yet sent first. A search is answered by the orders' search index
 * (`*searchKeys`: every ending of every number, so a part of a number is a prefix of one of them).
 */
export async function localOrderList(
  db: VersDb,
  query: Pick<OrderPageQuery, 'search' | 'status' | 'sort' | 'direction'> & { olderThanDays?: number | undefined },
): Promise<LocalOrderRow[]> {
  const needle = orderSearchNeedle(query.search ?? '');
  const rows = needle
    ? await db.orders.where('searchKeys').startsWith(needle).distinct().toArray()
    : await db.orders.toArray();
  const statuses = query.status ? statusesOf(query.status) : null;
  const compare = compareOrders(query.sort, query.direction);
  const createdBefore = query.olderThanDays ? openSince(query.olderThanDays, new Date()).getTime() : null;
  return rows
    .filter((row) => !statuses || statuses.includes(row.order.status as OrderStatus))
    .filter((row) => createdBefore === null || Date.parse(row.order.created) < createdBefore)
    .sort((a, b) => a.sent - b.sent || compare(a.order, b.order))
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
