// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process, which jsdom would get in the way of.
import 'fake-indexeddb/auto';
import { type CreateOrderRequest, checkDigit, orderSchema, signInResponseSchema } from '@vers/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../../server/src/db/schema.ts';
import { signOff } from '../../../server/src/test/orders.ts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../../server/src/test/server.ts';
import { recordChange } from './order-results.ts';
import { type LocalOrder, VersDb } from './versdb.ts';
// Before anything that imports the session (api, sync): it needs local storage and a window.
import { removeWindowStub } from './test-node-globals.ts';
import { oldVersDb } from './test-support/old-versdb.ts';
import { call, setApiOrigin } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { localOrderList } from './local-orders.ts';
import { orderListCursor, syncOrderList } from './order-list-sync.ts';
import { settleGoneOrders } from './restore.ts';

/*
 * The orders a device keeps for offline work (docs/requirements/orders.md#order-list-at-scale), between two devices and
 * the real server: what changed since the device's cursor, deletions from another device, orders that fall out of
 * what a device keeps, and the offline search over them.
 */

const OUT = '$.Body.Wagen.technicalWaggonOutgoing';
let server: TestServer;
const databases: VersDb[] = [];

function device(): VersDb {
  const db = new VersDb(`versdb-list-${crypto.randomUUID()}`);
  databases.push(db);
  return db;
}

const numberOf = (prefix: string, i: number) => {
  const eleven = `${prefix}${String(i).padStart(11 - prefix.length, '0')}`;
  return `${eleven}${checkDigit(eleven)}`;
};

function wagonRequest(i: number): CreateOrderRequest & { id: string } {
  const number = numberOf('3380', i);
  return {
    id: crypto.randomUUID(),
    type: 'WAGON',
    contractor: 'DBC',
    externalOrderNumber: `LIST-${i}`,
    maintenanceNumber: number,
    wagon: { number, wheelsetsOutgoing: [1, 2].map((w) => ({ number: numberOf('45', i * 10 + w) })) },
  };
}

const createOrder = (i: number) => call('orders', orderSchema, { method: 'POST', body: wagonRequest(i) });
const heldIds = async (db: VersDb) => (await db.orders.toArray()).map((row) => row.id);

/** Makes an order done and untouched for `days` days, past the code under test. */
async function ageDone(orderId: string, days: number) {
  const answer = await signOff(server, await server.signIn('werkadmin'), orderId);
  expect(answer.status).toBe(200);
  await server.database.db
    .update(orders)
    .set({ lastModified: sql`now() - make_interval(days => ${days})` })
    .where(sql`${orders.id} = ${orderId}`);
}

beforeAll(async () => {
  removeWindowStub();
  server = await startTestServer();
  setApiOrigin(server.url);
  sessionStore.set(
    await call('auth/signin', signInResponseSchema, {
      method: 'POST',
      body: { userName: 'staff', password: DEMO_PASSWORD },
    }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(databases.map((db) => db.delete()));
  await server?.close();
});

describe('the orders a device keeps', () => {
  it('a deletion on one device leaves the other at its next exchange, unless changes to it wait there', async () => {
    const [gone, kept, plain] = [await createOrder(1), await createOrder(2), await createOrder(3)];
    const a = device();
    const b = device();
    for (const db of [a, b]) expect(await syncOrderList(db)).toMatchObject({ full: true, dropped: 0, asked: [] });
    expect(await heldIds(b)).toEqual(expect.arrayContaining([gone.id, kept.id, plain.id]));
    // Device b changes `kept` without a network; device a deletes both.
    await recordChange(b, { orderId: kept.id, key: `${OUT}.Bemerkung`, value: 'waits on b' });
    for (const order of [gone, kept]) await call(`orders/${order.id}`, null, { method: 'DELETE' });

    const next = await syncOrderList(b);
    expect(next).toMatchObject({ full: false, received: 0, dropped: 1 });
    const held = await heldIds(b);
    expect(held).not.toContain(gone.id);
    expect(held).toContain(kept.id); // its change still waits, shown as not applied
    expect(held).toContain(plain.id);
    expect(await b.orderResults.where('orderId').equals(gone.id).count()).toBe(0);
    // Nothing changed since: nothing comes.
    expect(await syncOrderList(b)).toMatchObject({ full: false, received: 0, dropped: 0 });
  });

  it('done orders untouched for the offline days leave the device, unless opened here lately or work waits', async () => {
    const [old, opened, waiting] = [await createOrder(11), await createOrder(12), await createOrder(13)];
    // Pictures: one waits to be uploaded, one to be deleted, one is sent (which holds nothing back).
    const [pictureToSend, pictureToDelete, pictureSent] = [
      await createOrder(14),
      await createOrder(15),
      await createOrder(16),
    ];
    const db = device();
    await syncOrderList(db);
    await db.orders.update(opened.id, { opened: new Date().toISOString() });
    await recordChange(db, { orderId: waiting.id, key: `${OUT}.Bemerkung`, value: 'not sent' });
    const picture = (orderId: string, sent: 0 | 1, toBeDeleted: 0 | 1) => ({
      imageId: crypto.randomUUID(),
      orderId,
      tabName: 'Allgemein',
      name: 'brake.png',
      size: 1,
      capturedDate: new Date().toISOString(),
      sent,
      toBeDeleted,
    });
    await db.orderImages.bulkAdd([
      picture(pictureToSend.id, 0, 0),
      picture(pictureToDelete.id, 1, 1),
      picture(pictureSent.id, 1, 0),
    ]);
    for (const order of [old, opened, waiting, pictureToSend, pictureToDelete, pictureSent]) {
      await ageDone(order.id, 31);
    }
    // The next exchange brings them done, last changed 31 days ago; the one after finds them out of what is kept.
    await syncOrderList(db);
    const later = await syncOrderList(db);
    expect(later.full).toBe(false);
    const held = await heldIds(db);
    expect(held).not.toContain(old.id);
    expect(held).toContain(opened.id);
    expect(held).toContain(waiting.id);
    expect(held).toContain(pictureToSend.id);
    expect(held).toContain(pictureToDelete.id);
    expect(held).not.toContain(pictureSent.id);
  });

  it('searches the orders it keeps by a part of a number through its index, wagons by their wheelsets too', async () => {
    const order = await createOrder(21);
    const db = device();
    await syncOrderList(db);
    const wheelset = numberOf('45', 211);
    for (const search of [
      wheelset.slice(3, 10),
      `${order.maintenanceNumber.slice(0, 2)} ${order.maintenanceNumber.slice(2, 6)}`,
    ]) {
      const found = await localOrderList(db, { search, sort: 'created', direction: 'desc' });
      expect(
        found.map((row) => row.order.id),
        search,
      ).toContain(order.id);
    }
    expect(await localOrderList(db, { search: '999999999', sort: 'created', direction: 'desc' })).toEqual([]);
    const open = await localOrderList(db, { status: 'open', sort: 'number', direction: 'asc' });
    expect(open.map((row) => row.order.number)).toEqual([...open.map((row) => row.order.number)].sort());
  });

  it('starts over with a cursor the server cannot continue from, and asks about the orders it should have sent', async () => {
    const order = await createOrder(31);
    const db = device();
    await syncOrderList(db);
    await recordChange(db, { orderId: order.id, key: `${OUT}.Bemerkung`, value: 'waits' });
    // Deleted on the server past every device: no tombstone reaches this device through its cursor.
    await server.database.db.delete(orders).where(sql`${orders.id} = ${order.id}`);
    localStorage.setItem(`vers-order-list-cursor:${db.name}:${sessionStore.get()!.id}`, `${crypto.randomUUID()}.1.1`);
    const result = await syncOrderList(db);
    expect(result.full).toBe(true);
    expect(result.asked).toEqual([order.id]);
    expect(orderListCursor(db)).not.toContain('.1.1');
    // Asked about, the order is found lost (no tombstone) and made again from the device's data.
    await settleGoneOrders(db, result.asked);
    expect(
      (await server.request('GET', `/api/v1/orders/${order.id}`, { token: sessionStore.get()!.token })).status,
    ).toBe(200);
  });

  it('a device database of version 2 is upgraded with the search keys of the orders it holds, nothing else changed', async () => {
    const name = `versdb-upgrade-${crypto.randomUUID()}`;
    const old = oldVersDb(name, 2);
    const order = await createOrder(41);
    const row: LocalOrder = { id: order.id, sent: 1, order, created: new Date().toISOString() };
    await old.table('orders').put(row);
    old.close();
    const db = new VersDb(name);
    databases.push(db);
    const found = await localOrderList(db, { search: order.number, sort: 'created', direction: 'desc' });
    expect(found.map((hit) => hit.order.id)).toEqual([order.id]);
    expect(db.verno).toBe(0.4);
    const { searchKeys, ...rest } = (await db.orders.get(order.id))!;
    expect(rest).toEqual(row);
    expect(searchKeys).toContain(order.maintenanceNumber);
  });
});
