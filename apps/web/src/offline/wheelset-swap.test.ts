// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process, which jsdom would get in the way of.
import 'fake-indexeddb/auto';
import {
  foldActivities,
  fromServerActivity,
  mountedWheelset,
  serverActivitySchema,
  signInResponseSchema,
  type Values,
  type Write,
} from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../../server/src/test/server.ts';
import { createWagonOrder, wheelsetNumbers } from '../../../server/src/test/orders.ts';
// Before anything that imports the session: it needs local storage and a window.
import { removeWindowStub } from './test-node-globals.ts';
import { call, setApiOrigin } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { orderRows, recordChanges } from './order-results.ts';
import { localDay, swapWheelset } from './wheelset-swap.ts';
import type { EditContext } from './record-edit.ts';
import { pushOrderResults } from './sync.ts';
import { VersDb } from './versdb.ts';

let server: TestServer;
const db = new VersDb(`versdb-swap-${crypto.randomUUID()}`);

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
});
afterAll(async () => {
  await db.delete();
  await server?.close();
});

const serverValues = async (orderId: string): Promise<Values> =>
  foldActivities((await call(`activity/${orderId}`, z.array(serverActivitySchema))).map(fromServerActivity)).values;

/** The editor's write as the swap calls it: stores the writes as this device's changes, with the ids it is given. */
const recorder = (orderId: string, recorded: Write[][]) => (writes: Write[], context: EditContext) => {
  recorded.push(writes);
  void recordChanges(
    db,
    writes.map((write, index) => ({ orderId, ...write, ...(context.ids ? { id: context.ids[index]! } : {}) })),
  );
  return [];
};

describe('swapWheelset', () => {
  it('online: the server makes it; the rule refuses at once; unreachable: the same writes wait on the device', async () => {
    const order = await createWagonOrder(server, sessionStore.get()!.token);
    const [, second, , , free, other] = wheelsetNumbers(6) as string[];
    const recorded: Write[][] = [];
    const record = recorder(order.id, recorded);
    let values = await serverValues(order.id);
    const swap = (request: Parameters<typeof swapWheelset>[0]['request'], online = true) =>
      swapWheelset({ orderId: order.id, request, values, record, online });

    expect(await swap({ position: 1, wheelset: { number: free! } })).toEqual({ kind: 'updated' });
    values = await serverValues(order.id);
    expect(mountedWheelset(values, 1)).toEqual({
      position: 1,
      wheelset: { assetId: null, number: free },
      direction: 'NORMAL',
    });
    // The mount date is the device's day, sent with the call.
    const mountDate = Object.entries(values).find(([key]) => key.endsWith('Wheelset[0].MountDate'))?.[1];
    expect(mountDate).toMatchObject({ value: localDay() });

    // Judged on the device first: a number mounted elsewhere is refused without a call, offline too.
    expect(await swap({ position: 1, wheelset: { number: second! } }, false)).toEqual({
      kind: 'refused',
      code: 'WHEELSET_MOUNTED_ELSEWHERE',
    });
    expect(recorded).toHaveLength(0);

    setApiOrigin('http://127.0.0.1:1');
    try {
      expect(await swap({ position: 1, wheelset: { number: other! } })).toEqual({ kind: 'savedLocally' });
      // An XML import needs the server.
      expect(await swap({ position: 3, wheelset: { number: other!, assetId: crypto.randomUUID() } })).toEqual({
        kind: 'refused',
        code: 'NO_CONNECTION',
      });
    } finally {
      setApiOrigin(server.url);
    }
    expect(recorded).toHaveLength(1);
    await expect.poll(async () => (await orderRows(db, order.id)).length).toBe(recorded[0]!.length);
    const local = foldActivities(await orderRows(db, order.id)).values;
    expect(mountedWheelset({ ...values, ...local }, 1).wheelset?.number).toBe(other);
    // The server has not seen it yet.
    expect(mountedWheelset(await serverValues(order.id), 1).wheelset?.number).toBe(free);
  });

  it('a swap that reached the server but whose answer was lost is stored there once, when the device sends its record', async () => {
    const order = await createWagonOrder(server, sessionStore.get()!.token);
    const [, , , , free] = wheelsetNumbers(5) as string[];
    const recorded: Write[][] = [];
    const values = await serverValues(order.id);
    const realFetch = globalThis.fetch;
    // The server takes the call; its answer never arrives (a connection that broke on the way back).
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await realFetch(...args);
      if (args[1]?.method === 'PATCH') throw new TypeError('network connection lost');
      return response;
    };
    try {
      const outcome = await swapWheelset({
        orderId: order.id,
        request: { position: 2, wheelset: { number: free! } },
        values,
        record: recorder(order.id, recorded),
        online: true,
      });
      expect(outcome).toEqual({ kind: 'savedLocally' });
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(recorded).toHaveLength(1);
    const writes = recorded[0]!.length;
    await expect.poll(async () => (await orderRows(db, order.id)).length).toBe(writes);
    const before = (await call(`activity/${order.id}`, z.array(serverActivitySchema))).length;

    await pushOrderResults(db, order.id);

    const after = await call(`activity/${order.id}`, z.array(serverActivitySchema));
    expect(after).toHaveLength(before);
    expect(mountedWheelset(await serverValues(order.id), 2).wheelset?.number).toBe(free);
    // The device's rows are answered with the server's counters: nothing waits any more.
    const rows = await orderRows(db, order.id);
    expect(rows.filter((row) => row.counter > 0)).toHaveLength(writes);
  });
});
