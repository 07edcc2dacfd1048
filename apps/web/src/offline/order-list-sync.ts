import { type ListedOrder, SENT_STATES, keptForOfflineWork, orderChangesSchema } from '@vers/domain';
import { call } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { dropDeletedOrder } from './local-orders.ts';
import { SYNC_CALL } from './sync.ts';
import type { VersDb } from './versdb.ts';

/**
 * The orders of which work waits to be sent (changes, pictures to upload or delete): such an order stays. Three index
 * reads per exchange, whatever the number of orders the device keeps; asked order by order, the list's exchange read
 * every picture of every kept order at each visit of the list.
 */
async function ordersHoldingUnsentWork(db: VersDb): Promise<Set<string>> {
  const [changes, picturesToSend, picturesToDelete] = await Promise.all([
    db.orderResults
      .where('[sent+orderId]')
      .between([SENT_STATES.UNSENT, ''], [SENT_STATES.UNSENT, '\uffff'], true, true)
      .keys(),
    db.orderImages.where('sent').equals(0).toArray(),
    db.orderImages.where('toBeDeleted').equals(1).toArray(),
  ]);
  return new Set([
    ...changes.flatMap((key) => (Array.isArray(key) ? [String(key[1])] : [])),
    ...[...picturesToSend, ...picturesToDelete].map((picture) => picture.orderId),
  ]);
}

/**
 * Stores orders as the list calls answer them. Orders created on this device keep their creation payload (kept to
 * create them again after a restore) and owner; an order the editor opened keeps that time.
 */
async function keepListedOrders(db: VersDb, orders: readonly ListedOrder[]): Promise<void> {
  if (orders.length === 0) return;
  await db.transaction('rw', db.orders, async () => {
    const kept = await db.orders.bulkGet(orders.map((order) => order.id));
    const now = new Date().toISOString();
    await db.orders.bulkPut(
      orders.map((order, i) => {
        const before = kept[i];
        return {
          ...(before?.request ? { request: before.request } : {}),
          ...(before?.owner !== undefined ? { owner: before.owner } : {}),
          ...(before?.opened ? { opened: before.opened } : {}),
          id: order.id,
          sent: 1 as const,
          order,
          created: now,
        };
      }),
    );
  });
}

const cursorKey = (db: Pick<VersDb, 'name'>) => `vers-order-list-cursor:${db.name}:${sessionStore.get()?.id ?? ''}`;

/** The cursor of this device's last complete exchange of the order list; null before the first. */
export function orderListCursor(db: Pick<VersDb, 'name'>): string | null {
  return localStorage.getItem(cursorKey(db));
}

export interface OrderListSync {
  /** The server sent the orders to keep, not what changed (a first exchange, a restored server). */
  full: boolean;
  /** Orders the server sent. */
  received: number;
  /** Orders that left the device: deleted on the server, or no longer kept for offline work. */
  dropped: number;
  /** Synced orders the server did not send although this device holds work of them or keeps them: asked about. */
  asked: string[];
}

/**
 * Brings the orders this device keeps for offline work up to date (docs/requirements/orders.md#order-list-at-scale):
 * what changed since the device's cursor, page by page (`GET orders/changes`), and the orders deleted since; or, on a
 * first exchange or after a restored server, the orders to keep. Orders that fall out of what a device keeps (done and
 * untouched for OFFLINE_DAYS days, not opened here since) leave the device, unless work of them waits to be sent. The
 * cursor is kept only once every page is stored: an exchange that breaks off is repeated from the old cursor.
 * A synced order the full answer leaves out, which this device still keeps or holds unsent work of, is answered in
 * `asked`, for `settleGoneOrders` (deleted on purpose: it goes; lost by the server: it is sent again).
 */
export async function syncOrderList(db: VersDb, now = new Date()): Promise<OrderListSync> {
  const cursor = orderListCursor(db);
  let query = new URLSearchParams(cursor ? { cursor } : {});
  let full = false;
  let received = 0;
  const delivered = new Set<string>();
  const deleted: string[] = [];
  for (;;) {
    const answer = await call(`orders/changes?${query.toString()}`, orderChangesSchema, SYNC_CALL);
    if (answer.full && !full) {
      // A first exchange, or the server could not continue from the cursor (a restored backup): start over.
      full = true;
      delivered.clear();
      deleted.length = 0;
    }
    await keepListedOrders(db, answer.orders);
    for (const order of answer.orders) delivered.add(order.id);
    received += answer.orders.length;
    deleted.push(...answer.deleted);
    if (!answer.more) {
      const result = await settleList(db, { full, delivered, deleted, now });
      localStorage.setItem(cursorKey(db), answer.next);
      return { full, received, ...result };
    }
    query = new URLSearchParams({ page: answer.next });
  }
}

/** After an exchange: deleted orders leave, and so do orders no longer kept; doubtful ones are answered. */
async function settleList(
  db: VersDb,
  exchange: { full: boolean; delivered: ReadonlySet<string>; deleted: readonly string[]; now: Date },
): Promise<{ dropped: number; asked: string[] }> {
  let dropped = 0;
  const asked: string[] = [];
  for (const id of exchange.deleted) {
    if (await db.orders.get(id)) dropped += (await dropDeletedOrder(db, id)) ? 1 : 0;
  }
  const synced = await db.orders.where('sent').equals(1).toArray();
  const holdingUnsentWork = await ordersHoldingUnsentWork(db);
  for (const row of synced) {
    if (exchange.delivered.has(row.id)) continue;
    const unsent = holdingUnsentWork.has(row.id);
    if (exchange.full && (unsent || keptForOfflineWork(row.order, exchange.now))) {
      // The server should have sent it: deleted, lost, or done since long. Asked, never dropped unseen.
      asked.push(row.id);
      continue;
    }
    if (unsent || keptForOfflineWork(row.order, exchange.now, row.opened)) continue;
    dropped += (await dropDeletedOrder(db, row.id)) ? 1 : 0;
  }
  return { dropped, asked };
}
