// @vitest-environment node
// The real server runs in this process (PGlite in a folder, or the PostgreSQL server TEST_DATABASE_URL names), with
// the browser's sync code against it; jsdom would get in the way of both.
import 'fake-indexeddb/auto';
import {
  type Activity,
  checkDigit,
  type CreateOrderRequest,
  isUnsent,
  orderSchema,
  SENT_STATES,
  type ServerActivity,
  type SignInResponse,
  signInResponseSchema,
} from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../server/src/test/server.ts';
import { startRestorableServer, type RestorableServer } from '../../../server/src/test/restorable.ts';
// Before anything that imports the session (api, sync): it needs local storage and a window.
import { removeWindowStub } from './test-node-globals.ts';
import { call, setApiOrigin } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { sendImages, storeImage } from './images.ts';
import { createOrderLocally } from './local-orders.ts';
import { syncOrderList } from './order-list-sync.ts';
import { localState, recordChange, undoLastChange } from './order-results.ts';
import { exchangeOrder, healIfRestored, settleGoneOrders } from './restore.ts';
import { deviceIdentity } from './server-identity.ts';
import { pushWaitingOrders, sendUnsentOrders } from './sync.ts';
import { png } from './test-support/png.ts';
import { serverFold } from './test-support/server-helpers.ts';
import { VersDb } from './versdb.ts';

/*
 * A server that went back in time: a backup is restored (PGlite: a copy of its data folder; PostgreSQL: pg_dump and
 * pg_restore) after three tablets had changes, an order and pictures acknowledged. The server hands the lost counters
 * to new changes. The browser's own sync code must notice and heal: every acknowledged change, the order and the
 * pictures are on the server again, nothing twice, and every tablet folds to what the server folds.
 */

const OUT = '$.Body.Wagen.technicalWaggonOutgoing';
const USERS = ['staff', 'werkadmin', 'wagonqa'] as const;
const FIELDS = [`${OUT}.Bemerkung`, `${OUT}.Halterkurzkennzeichen`, `${OUT}.LetztesLadegut`];

let restorable: RestorableServer;
let sessions: SignInResponse[];
const tablets: VersDb[] = USERS.map(() => new VersDb(`versdb-restore-${crypto.randomUUID()}`));

const as = (tablet: number) => sessionStore.set(sessions[tablet]!);

function wheelsetNumber(i: number): string {
  const eleven = `4${String(1_000_000_000 + i).slice(-10)}`;
  return `${eleven}${checkDigit(eleven)}`;
}
const orderRequest = (): CreateOrderRequest & { id: string } => ({
  id: crypto.randomUUID(),
  type: 'WAGON',
  contractor: 'DBC',
  externalOrderNumber: 'EXT-RESTORE',
  maintenanceNumber: '21 81 2471 217-3',
  wagon: { number: '21 81 2471 217-3', wheelsetsOutgoing: [1, 2].map((i) => ({ number: wheelsetNumber(i) })) },
});

beforeAll(async () => {
  removeWindowStub();
  restorable = await startRestorableServer();
  setApiOrigin(restorable.server.url);
  sessions = await Promise.all(
    USERS.map(async (userName) => {
      const res = await restorable.server.request('POST', '/api/v1/auth/signin', {
        body: { userName, password: DEMO_PASSWORD },
      });
      return signInResponseSchema.parse(res.body);
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(tablets.map((db) => db.delete()));
  await restorable?.close();
});

/** What the server holds of an order, read past the code under test. */
async function onServer(orderId: string): Promise<ServerActivity[]> {
  const res = await restorable.server.request<ServerActivity[]>('GET', `/api/v1/activity/${orderId}`, {
    token: sessions[0]!.token,
  });
  return res.status === 200 ? res.body : [];
}

/** The ids of every change a tablet holds as acknowledged by the server. */
async function acknowledged(db: VersDb): Promise<Set<string>> {
  const rows = await db.orderResults.toArray();
  return new Set(rows.filter((row: Activity) => !isUnsent(row) && row.restores == null).map((row) => row.id));
}

/**
 * What the scheduler does each tick, on every tablet, until nothing waits anywhere: orders created offline, a heal
 * when the server is not the one the tablet's counters belong to, waiting changes, pictures, the orders in view and
 * the order list with its gone orders.
 */
async function exchangeAll(orderIds: readonly string[]): Promise<void> {
  // Until nothing waits, then one more round so that every tablet has the others' last changes.
  let quiet = false;
  for (let round = 0; round < 6 && !quiet; round += 1) {
    const settled = await Promise.all(tablets.map((db) => db.orderResults.where('sent').equals(0).count()));
    quiet = round > 0 && settled.every((n) => n === 0);
    for (const [tablet, db] of tablets.entries()) {
      as(tablet);
      await sendUnsentOrders(db);
      await healIfRestored(db);
      await pushWaitingOrders(db);
      await sendImages(db);
      for (const orderId of orderIds) await exchangeOrder(db, orderId);
      await settleGoneOrders(db, (await syncOrderList(db)).asked);
    }
  }
}

describe('a restored server', () => {
  it('gets back every change, order and picture the tablets hold, and every tablet folds as it does', async () => {
    const first = orderRequest();
    as(0);
    await call('orders', orderSchema, { method: 'POST', body: first });
    // Everyone works on the order; tablet 0 takes a picture.
    for (const [tablet, db] of tablets.entries()) {
      as(tablet);
      for (const [i, key] of FIELDS.entries())
        await recordChange(db, { orderId: first.id, key, value: `v${tablet}${i}` });
    }
    as(0);
    const before = await storeImage(tablets[0]!, { orderId: first.id, tabName: 'brake', bytes: png(4, 4) });
    await exchangeAll([first.id]);
    const generationBefore = deviceIdentity(tablets[0]!)?.generation;

    await restorable.backup();
    setApiOrigin(restorable.server.url);

    // After the backup: more changes, an undo, an order created offline on tablet 1, another picture. All acknowledged.
    for (const [tablet, db] of tablets.entries()) {
      as(tablet);
      for (const [i, key] of FIELDS.entries()) {
        await recordChange(db, { orderId: first.id, key, value: `after-${tablet}${i}`, seen: 0 });
      }
    }
    as(2);
    await exchangeAll([first.id]);
    expect(await undoLastChange(tablets[2]!, first.id)).toMatchObject({ kind: 'revert' });
    const second = orderRequest();
    as(1);
    await createOrderLocally(tablets[1]!, second);
    await recordChange(tablets[1]!, { orderId: second.id, key: `${OUT}.Bemerkung`, value: 'made after the backup' });
    as(0);
    const after = await storeImage(tablets[0]!, { orderId: first.id, tabName: 'tank', bytes: png(5, 5) });
    await exchangeAll([first.id, second.id]);
    const everyAcknowledged = new Set((await Promise.all(tablets.map(acknowledged))).flatMap((ids) => [...ids]));
    expect((await onServer(second.id)).length).toBeGreaterThan(0);

    await restorable.restore();
    setApiOrigin(restorable.server.url);
    // The restored server hands out the lost counters again: tablet 2, not yet aware, changes a field.
    as(2);
    await recordChange(tablets[2]!, { orderId: first.id, key: `${OUT}.Bemerkung`, value: 'after the restore' });
    await exchangeOrder(tablets[2]!, first.id);
    await exchangeAll([first.id, second.id]);

    // Nothing acknowledged is lost, nothing is there twice.
    const logs = [...(await onServer(first.id)), ...(await onServer(second.id))];
    const ids = logs.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    const missing = [...everyAcknowledged].filter((id) => !ids.includes(id));
    expect(missing, 'acknowledged changes the server lacks after the heal').toEqual([]);
    // The order made after the backup is back, with its number, and both pictures.
    const order = await restorable.server.request<{ number: string }>('GET', `/api/v1/orders/${second.id}`, {
      token: sessions[0]!.token,
    });
    expect(order.status).toBe(200);
    for (const picture of [before, after]) {
      if (!picture.ok) throw new Error('picture not stored');
      const res = await restorable.server.request('GET', `/api/v1/assets/${picture.image.imageId}`, {
        token: sessions[0]!.token,
      });
      expect(res.status, `picture ${picture.image.name}`).toBe(200);
    }
    // The server noticed and raised its generation; every tablet now holds that one and folds as the server does.
    const generationAfter = deviceIdentity(tablets[0]!)?.generation;
    expect(generationAfter).toBeGreaterThan(generationBefore ?? 0);
    for (const orderId of [first.id, second.id]) {
      const expected = serverFold(await onServer(orderId));
      for (const [tablet, db] of tablets.entries()) {
        if ((await db.orderResults.where('orderId').equals(orderId).count()) === 0) continue;
        expect(await localState(db, orderId), `tablet ${USERS[tablet]}, order ${orderId}`).toEqual(expected);
        expect(deviceIdentity(db)?.generation, `tablet ${USERS[tablet]}`).toBe(generationAfter);
        const waiting = await db.orderResults.where('sent').equals(SENT_STATES.UNSENT).count();
        expect(waiting).toBe(0);
      }
    }
  }, 180_000);
});
