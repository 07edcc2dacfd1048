// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process, which jsdom would get in the way of.
import 'fake-indexeddb/auto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type CreateOrderRequest,
  attributeValue,
  checkDigit,
  orderSchema,
  SENT_STATES,
  type ServerActivity,
  signInResponseSchema,
  UNSENT_COUNTER,
} from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { signOff } from '../../../server/src/test/orders.ts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../../server/src/test/server.ts';
import { localState, newUuid, recordChange, recordChanges, undoLastChange } from './order-results.ts';
import { VersDb } from './versdb.ts';
// Before anything that imports the session (api, sync, scheduler): it needs local storage and a window.
import { removeWindowStub } from './test-node-globals.ts';
import { call, setApiNavigator, setApiOrigin } from '../app/api.ts';
import { notifications } from '../app/notifications.ts';
import { sessionStore } from '../app/session.ts';
import { SyncScheduler } from './scheduler.ts';
import { pullOrderResults, pushOrderResults, sendUnsentOrders, syncOrder } from './sync.ts';

const WAGON_NUMBER = '21 81 2471 217-3';
const IN = '$.Body.Wagen.technicalWaggonIncoming';
const OUT = '$.Body.Wagen.technicalWaggonOutgoing';
const CLOSED_PORT = 'http://127.0.0.1:1';

let server: TestServer;
let webDist: string;
const databases: VersDb[] = [];

/** One browser's local database. */
function browser(): VersDb {
  const db = new VersDb(`versdb-sync-${crypto.randomUUID()}`);
  databases.push(db);
  return db;
}

function wheelsetNumber(i: number): string {
  const eleven = `4${String(1_000_000_000 + i).slice(-10)}`;
  return `${eleven}${checkDigit(eleven)}`;
}

function orderRequest(id = crypto.randomUUID()): CreateOrderRequest & { id: string } {
  return {
    id,
    type: 'WAGON',
    contractor: 'DBC',
    externalOrderNumber: 'EXT-SYNC',
    maintenanceNumber: WAGON_NUMBER,
    wagon: {
      number: WAGON_NUMBER,
      wheelsetsOutgoing: [1, 2, 3, 4].map((i) => ({ number: wheelsetNumber(i) })),
    },
  };
}

/** A wagon order made through the real POST orders, as staff. */
async function createOrder() {
  return call('orders', orderSchema, { method: 'POST', body: orderRequest() });
}

/** What the server holds for an order, read past the code under test. */
async function serverActivities(orderId: string): Promise<ServerActivity[]> {
  const res = await server.request<ServerActivity[]>('GET', `/api/v1/activity/${orderId}`, {
    token: sessionStore.get()!.token,
  });
  expect(res.status).toBe(200);
  return res.body;
}

const rows = (db: VersDb, orderId: string) => db.orderResults.where('orderId').equals(orderId).sortBy('counterLocal');

beforeAll(async () => {
  removeWindowStub();
  // A built front end to answer the scheduler's online check at the site origin.
  webDist = mkdtempSync(path.join(tmpdir(), 'vers-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>VERS</title>');
  server = await startTestServer({ webDist });
  setApiOrigin(server.url);
  const session = await call('auth/signin', signInResponseSchema, {
    method: 'POST',
    body: { userName: 'staff', password: DEMO_PASSWORD },
  });
  sessionStore.set(session);
}, 60_000);

afterAll(async () => {
  await Promise.all(databases.map((db) => db.delete()));
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('push and pull', () => {
  it('records locally, then pushes: rows get the next server counters and sent 1', async () => {
    const order = await createOrder();
    expect(order.lastCounter).toBe(10); // the creation data: wagon number in and out, four wheelsets
    const a = browser();
    const first = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '22500' });
    expect(first).toMatchObject({ counter: UNSENT_COUNTER, counterLocal: 0, sent: 0, reverted: false });
    await recordChange(a, { orderId: order.id, key: `${OUT}.Eigengewicht`, value: '22400' });
    await recordChange(a, { orderId: order.id, key: `${IN}.AnzahlAchsen`, value: '4' });
    expect((await localState(a, order.id)).values[`${OUT}.Eigengewicht`]).toMatchObject({ value: '22400' });

    expect(await pushOrderResults(a, order.id)).toEqual({ pushed: 3, pulled: 0 });
    const pushed = await rows(a, order.id);
    expect(pushed.map((r) => [r.counterLocal, r.counter, r.sent])).toEqual([
      [0, 11, 1],
      [1, 12, 1],
      [2, 13, 1],
    ]);
    expect(pushed.every((r) => r.lastModified && r.lastModifier)).toBe(true);
    expect((await serverActivities(order.id)).map((s) => s.co)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);

    // The pull then brings the creation data.
    expect(await pullOrderResults(a, order.id)).toEqual({ pushed: 0, pulled: 10 });
    expect((await localState(a, order.id)).lastCounter).toBe(13);
  });

  it('two browsers converge, also when a push jumps over counters the other browser made', async () => {
    const order = await createOrder();
    const a = browser();
    const b = browser();
    await syncOrder(a, order.id);
    await syncOrder(b, order.id);
    await recordChange(b, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '20000' }); // 11 from B
    await syncOrder(b, order.id);
    await recordChange(a, { orderId: order.id, key: `${OUT}.Eigengewicht`, value: '19000' }); // 12 from A
    // A now holds 1..10 and 12: the pull must start at 10, not at its highest counter.
    expect(await syncOrder(a, order.id)).toEqual({ pushed: 1, pulled: 1 });
    await syncOrder(b, order.id);

    const stateA = await localState(a, order.id);
    expect(stateA).toEqual(await localState(b, order.id));
    expect(stateA.values).toMatchObject({
      [`${IN}.Eigengewicht`]: { value: '20000' },
      [`${OUT}.Eigengewicht`]: { value: '19000' },
    });
    expect(stateA.lastCounter).toBe(12);
    // Nothing duplicated by the pull: each server activity once.
    expect(await a.orderResults.where('orderId').equals(order.id).count()).toBe(12);
  });

  it('a long pull (a first load, 250 changes) merges as a short one: own rows keep their fields, waiting ones wait', async () => {
    const order = await createOrder();
    const a = browser();
    await recordChange(a, { orderId: order.id, key: `${OUT}.Eigengewicht`, value: '19000' });
    await pushOrderResults(a, order.id);
    const [own] = await rows(a, order.id);
    await recordChange(a, { orderId: order.id, key: `${IN}.AnzahlAchsen`, value: '4' }); // waits, unsent
    // Another device's 250 changes, sent in one batch.
    const now = new Date();
    const batch = Array.from({ length: 250 }, (_, i) => ({
      id: crypto.randomUUID(),
      oI: order.id,
      k: `${IN}.Eigengewicht`,
      t: 'XML_MODIFICATION',
      oV: JSON.stringify(attributeValue(String(20_000 + i), now)),
      c: now.toISOString(),
    }));
    const sent = await server.request('POST', '/api/v1/activity/batch', {
      token: sessionStore.get()!.token,
      body: { activities: batch },
    });
    expect(sent.status).toBe(200);

    expect(await pullOrderResults(a, order.id)).toEqual({ pushed: 0, pulled: 260 }); // the creation data and the batch
    const after = await rows(a, order.id);
    expect(after).toHaveLength(262);
    expect(after.find((r) => r.id === own!.id)).toEqual(own);
    expect(after.filter((r) => r.sent === 0).map((r) => r.key)).toEqual([`${IN}.AnzahlAchsen`]);
    expect((await localState(a, order.id)).values[`${IN}.Eigengewicht`]).toMatchObject({ value: '20249' });
    // Pulled again: nothing changes.
    expect(await pullOrderResults(a, order.id)).toEqual({ pushed: 0, pulled: 0 });
  });

  it('pushing the same rows again (a lost answer) creates nothing twice on the server', async () => {
    const order = await createOrder();
    const a = browser();
    const one = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '1' });
    const two = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '2' });
    await pushOrderResults(a, order.id);
    const before = await serverActivities(order.id);
    // The answer "was lost": the rows look unsent again.
    await a.orderResults
      .where('orderId')
      .equals(order.id)
      .modify({ sent: SENT_STATES.UNSENT, counter: UNSENT_COUNTER });
    expect(await syncOrder(a, order.id)).toMatchObject({ pushed: 2 });
    expect(await serverActivities(order.id)).toEqual(before);
    expect((await a.orderResults.bulkGet([one.id, two.id])).map((r) => [r?.counter, r?.sent])).toEqual([
      [11, 1],
      [12, 1],
    ]);
    expect(await a.orderResults.where('orderId').equals(order.id).count()).toBe(12);
  });

  it('sends a status change recorded offline through the status call, in its place among the changes', async () => {
    const order = await createOrder();
    const a = browser();
    await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '5' });
    await recordChange(a, {
      orderId: order.id,
      key: '$.status',
      value: 'IN_QA',
      activityType: 'ORDER_STATUS_MODIFICATION',
    });
    await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '6' });
    expect(await syncOrder(a, order.id)).toMatchObject({ pushed: 3 });
    const onServer = await serverActivities(order.id);
    expect(onServer.slice(10).map((s) => [s.co, s.t])).toEqual([
      [11, 'XML_MODIFICATION'],
      [12, 'ORDER_STATUS_MODIFICATION'],
      [13, 'XML_MODIFICATION'],
    ]);
    expect((await call(`orders/${order.id}`, orderSchema)).status).toBe('IN_QA');
    expect((await localState(a, order.id)).status).toBe('IN_QA');
  });
});

describe('ids', () => {
  it('are valid v4 UUIDs also where crypto.randomUUID is missing (plain HTTP on a workshop network)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (array: Uint8Array<ArrayBuffer>) => real.getRandomValues(array) });
    try {
      const ids = Array.from({ length: 50 }, () => newUuid());
      expect(ids.every((id) => z.uuid({ version: 'v4' }).safeParse(id).success)).toBe(true);
      expect(new Set(ids).size).toBe(50);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('undo', () => {
  it('of an unsent change deletes it locally', async () => {
    const order = await createOrder();
    const a = browser();
    await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '1' });
    await syncOrder(a, order.id);
    const last = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '2' });
    expect(await undoLastChange(a, order.id)).toMatchObject({ kind: 'delete', id: last.id });
    expect(await a.orderResults.get(last.id)).toBeUndefined();
    expect((await localState(a, order.id)).values[`${IN}.Eigengewicht`]).toMatchObject({ value: '1' });
    expect(await syncOrder(a, order.id)).toEqual({ pushed: 0, pulled: 0 });
    expect((await serverActivities(order.id)).length).toBe(11);
  });

  it('of a sent change reverts it on the server; both browsers converge on the previous value', async () => {
    const order = await createOrder();
    const a = browser();
    const b = browser();
    const key = `${OUT}.Eigengewicht`;
    await recordChange(a, { orderId: order.id, key, value: '100' });
    await syncOrder(a, order.id);
    const second = await recordChange(a, { orderId: order.id, key, value: '200' });
    await syncOrder(a, order.id);
    await syncOrder(b, order.id);
    expect((await localState(b, order.id)).values[key]).toMatchObject({ value: '200' });

    expect(await undoLastChange(a, order.id)).toMatchObject({ kind: 'revert', id: second.id });
    // At once, before any network: reverted, unsent, server counter kept.
    expect(await a.orderResults.get(second.id)).toMatchObject({ reverted: true, sent: 0, counter: 12 });
    expect((await localState(a, order.id)).values[key]).toMatchObject({ value: '100' });
    expect(await a.orderResults.where('sent').equals(0).count()).toBe(1);

    expect(await syncOrder(a, order.id)).toEqual({ pushed: 1, pulled: 1 });
    expect(await a.orderResults.get(second.id)).toMatchObject({ reverted: true, sent: 1, counter: 12 });
    const onServer = await serverActivities(order.id);
    expect(onServer.find((s) => s.co === 12)?.re).toBe(true);
    expect(onServer.at(-1)).toMatchObject({ co: 13, k: key, oV: expect.stringContaining('"value":"100"') });

    await syncOrder(b, order.id);
    expect((await localState(a, order.id)).values[key]).toMatchObject({ value: '100' });
    expect((await localState(b, order.id)).values).toEqual((await localState(a, order.id)).values);
  });

  it('while the push is under way keeps the undo: the row comes back as a pending revert', async () => {
    const order = await createOrder();
    const a = browser();
    const key = `${IN}.Eigengewicht`;
    await recordChange(a, { orderId: order.id, key, value: '1' });
    await syncOrder(a, order.id);
    const late = await recordChange(a, { orderId: order.id, key, value: '2' });
    // The user undoes exactly while the batch is on its way.
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const answer = await realFetch(input, init);
      // One waiting change goes through POST activity, several through the batch.
      if (/\/activity(\/batch)?$/.test(String(input))) await undoLastChange(a, order.id);
      return answer;
    });
    try {
      expect(await syncOrder(a, order.id)).toMatchObject({ pushed: 2 });
    } finally {
      spy.mockRestore();
    }
    expect(await a.orderResults.get(late.id)).toMatchObject({ counter: 12, reverted: true, sent: 1 });
    expect((await localState(a, order.id)).values[key]).toMatchObject({ value: '1' });
    const onServer = await serverActivities(order.id);
    expect(onServer.find((s) => s.co === 12)?.re).toBe(true);
    expect(onServer.at(-1)).toMatchObject({ k: key, oV: expect.stringContaining('"value":"1"') });
  });
});

describe('refusals and failures', () => {
  it('an order unknown to the server marks its rows sent 2; they are kept and skipped', async () => {
    const a = browser();
    const orderId = crypto.randomUUID();
    const change = await recordChange(a, { orderId, key: `${IN}.Eigengewicht`, value: '1' });
    expect(await syncOrder(a, orderId)).toEqual({ pushed: 0, pulled: 0, unknownOrder: true });
    expect(await a.orderResults.get(change.id)).toMatchObject({ sent: 2, counter: UNSENT_COUNTER });
    expect((await localState(a, orderId)).values).toEqual({});
  });

  it('a malformed pull answer is refused and nothing of it is stored; the next pull stores it all', async () => {
    const order = await createOrder();
    const a = browser();
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const answer = await realFetch(input, init);
      if (!/\/activity\/[^/]+\?after=/.test(String(input))) return answer;
      const rows = (await answer.json()) as Record<string, unknown>[];
      rows[rows.length - 1] = { ...rows.at(-1), co: 'ten' };
      return new Response(JSON.stringify(rows), { status: 200, headers: answer.headers });
    });
    try {
      expect(await pullOrderResults(a, order.id)).toMatchObject({ pulled: 0, failed: 200 });
    } finally {
      spy.mockRestore();
    }
    expect(await a.orderResults.where('orderId').equals(order.id).count()).toBe(0);
    expect(await pullOrderResults(a, order.id)).toMatchObject({ pulled: 10 });
    expect(await a.orderResults.where('orderId').equals(order.id).count()).toBe(10);
  });

  it('a done order leaves the changes unsent and reports it read-only; others still come in', async () => {
    const order = await createOrder();
    const adminToken = await server.signIn('werkadmin');
    const done = await signOff(server, adminToken, order.id);
    expect(done.status).toBe(200);
    const a = browser();
    const change = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '1' });
    expect(await syncOrder(a, order.id)).toEqual({ pushed: 0, pulled: 11, readOnly: true });
    // Kept unsent (the order may be reopened), with the reason for the user.
    expect(await a.orderResults.get(change.id)).toMatchObject({
      sent: 0,
      counter: UNSENT_COUNTER,
      refusal: { status: 409, code: 'ORDER_READ_ONLY' },
    });
    expect((await localState(a, order.id)).status).toBe('DONE');
    expect((await serverActivities(order.id)).length).toBe(11);
  });

  it('a change the server refuses is set aside with its reason; the changes before and after it still go', async () => {
    const order = await createOrder();
    const a = browser();
    const before = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '22500' });
    const bad = await recordChange(a, { orderId: order.id, key: `${OUT}.Eigengewicht`, value: 'twenty' });
    const after = await recordChange(a, { orderId: order.id, key: `${OUT}.AnzahlAchsen`, value: '4' });
    expect(await pushOrderResults(a, order.id)).toEqual({
      pushed: 2,
      pulled: 0,
      refused: 1,
      incompatibleKey: `${OUT}.Eigengewicht`,
    });
    expect(await a.orderResults.get(bad.id)).toMatchObject({
      sent: SENT_STATES.REFUSED,
      counter: UNSENT_COUNTER,
      refusal: { status: 400, code: 'INCOMPATIBLE_TYPE' },
    });
    expect((await a.orderResults.get(before.id))?.counter).toBe(11);
    expect((await a.orderResults.get(after.id))?.counter).toBe(12);
    // The refused value takes no effect and is not sent again.
    expect((await localState(a, order.id)).values[`${OUT}.Eigengewicht`]).toBeUndefined();
    expect(await pushOrderResults(a, order.id)).toEqual({ pushed: 0, pulled: 0 });
    expect((await serverActivities(order.id)).map((s) => s.id)).not.toContain(bad.id);
  });

  it('a status change the roles do not allow is set aside with its reason; the changes after it still go', async () => {
    const order = await createOrder();
    const a = browser();
    const done = await recordChange(a, {
      orderId: order.id,
      key: '$.status',
      value: 'DONE',
      activityType: 'ORDER_STATUS_MODIFICATION',
    });
    const after = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '22500' });
    expect(await pushOrderResults(a, order.id)).toEqual({ pushed: 1, pulled: 0, refused: 1 });
    expect(await a.orderResults.get(done.id)).toMatchObject({ sent: SENT_STATES.REFUSED, refusal: { status: 403 } });
    expect(await a.orderResults.get(after.id)).toMatchObject({ sent: 1, counter: 11 });
  });

  it("another user's waiting work on this device is neither sent nor counted, and goes when they sign in again", async () => {
    const order = await createOrder();
    const a = browser();
    const staff = sessionStore.get()!;
    const mine = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '22500' });
    const offlineOrder = orderRequest();
    await a.orders.add({
      id: offlineOrder.id,
      sent: 0,
      order: await createOrderShape(offlineOrder.id),
      request: offlineOrder,
      owner: staff.id,
    });
    const other = await call('auth/signin', signInResponseSchema, {
      method: 'POST',
      body: { userName: 'werkadmin', password: DEMO_PASSWORD },
    });
    sessionStore.set(other);
    try {
      const theirs = await recordChange(a, { orderId: order.id, key: `${OUT}.Eigengewicht`, value: '22400' });
      expect(theirs.owner).toBe(other.id);
      expect(await sendUnsentOrders(a)).toEqual({ sent: 0, failed: [] });
      expect(await pushOrderResults(a, order.id)).toEqual({ pushed: 1, pulled: 0 });
      expect(await a.orderResults.get(mine.id)).toMatchObject({ sent: 0, owner: staff.id });
      expect((await serverActivities(order.id)).find((s) => s.id === theirs.id)?.mod).toBe(
        (await a.orderResults.get(theirs.id))?.lastModifier,
      );
    } finally {
      sessionStore.set(staff);
    }
    expect(await sendUnsentOrders(a)).toEqual({ sent: 1, failed: [] });
    expect(await pushOrderResults(a, order.id)).toEqual({ pushed: 1, pulled: 0 });
    expect((await serverActivities(order.id)).map((s) => s.id)).toContain(mine.id);
  });

  it('an expired session (401) signs out and keeps the changes; signed in again as the same user, they are sent', async () => {
    const order = await createOrder();
    const a = browser();
    const staff = sessionStore.get()!;
    const change = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '5' });
    sessionStore.set({ ...staff, token: `${staff.token}x` });
    // The global reaction reads the page's address and navigates: a minimal window for it, removed at once after.
    const globals = globalThis as unknown as Record<string, unknown>;
    globals.window = { location: { pathname: '/orders/wagon/x/basedata', search: '' } };
    const navigated: string[] = [];
    setApiNavigator((target) => navigated.push(target));
    try {
      expect(await pushOrderResults(a, order.id)).toMatchObject({ pushed: 0, failed: 401 });
      expect(sessionStore.get()).toBeNull();
    } finally {
      delete globals.window;
    }
    // The global reaction: signed out, the user is sent to the login, which says why, and comes back to the order.
    expect(navigated).toEqual([`/login?redirect=${encodeURIComponent('/orders/wagon/x/basedata')}&reason=401`]);
    // Unchanged but for the note that a push was tried (it may have reached the server: an undo must revert it).
    expect(await a.orderResults.get(change.id)).toEqual({ ...change, attempted: true });
    const again = await call('auth/signin', signInResponseSchema, {
      method: 'POST',
      body: { userName: 'staff', password: DEMO_PASSWORD },
    });
    sessionStore.set(again);
    expect(await pushOrderResults(a, order.id)).toEqual({ pushed: 1, pulled: 0 });
    expect(await a.orderResults.get(change.id)).toMatchObject({ sent: 1, owner: staff.id });
  });

  it('offline nothing changes and nothing is lost; the next exchange sends it all', async () => {
    const order = await createOrder();
    const a = browser();
    const request = orderRequest();
    await a.orders.add({ id: request.id, sent: 0, order: await createOrderShape(request.id), request });
    const change = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '7' });
    const shown = notifications.current();
    setApiOrigin(CLOSED_PORT);
    try {
      expect(await sendUnsentOrders(a)).toEqual({ sent: 0, offline: true, failed: [] });
      expect(await syncOrder(a, order.id)).toEqual({ pushed: 0, pulled: 0, offline: true });
      expect(await pullOrderResults(a, order.id)).toEqual({ pushed: 0, pulled: 0, offline: true });
    } finally {
      setApiOrigin(server.url);
    }
    expect(await a.orderResults.get(change.id)).toEqual({ ...change, attempted: true });
    expect(await a.orders.where('sent').equals(0).count()).toBe(1);
    // Background sync shows no "no connection" message.
    expect(notifications.current()).toBe(shown);

    expect(await sendUnsentOrders(a)).toEqual({ sent: 1, failed: [] });
    expect(await syncOrder(a, order.id)).toEqual({ pushed: 1, pulled: 10 });
    expect(await a.orderResults.get(change.id)).toMatchObject({ sent: 1, counter: 11 });
  });
});

describe('orders created offline', () => {
  it('are sent with their payload; sending again answers the same order; their changes wait for them', async () => {
    const a = browser();
    const request = orderRequest();
    await a.orders.add({ id: request.id, sent: 0, order: await createOrderShape(request.id), request });
    const change = await recordChange(a, { orderId: request.id, key: `${IN}.Eigengewicht`, value: '3' });
    // Not on the server yet: no push, so no 404 parks the change.
    expect(await syncOrder(a, request.id)).toEqual({ pushed: 0, pulled: 0, orderUnsent: true });
    expect(await a.orderResults.get(change.id)).toMatchObject({ sent: 0 });

    expect(await sendUnsentOrders(a)).toEqual({ sent: 1, failed: [] });
    const stored = await a.orders.get(request.id);
    expect(stored).toMatchObject({ sent: 1, request, order: { id: request.id, lastCounter: 10 } });
    await a.orders.update(request.id, { sent: 0 });
    expect(await sendUnsentOrders(a)).toEqual({ sent: 1, failed: [] });
    expect((await a.orders.get(request.id))?.order.number).toBe(stored?.order.number);
    expect((await call(`orders/${request.id}`, orderSchema)).lastCounter).toBe(10);

    expect(await syncOrder(a, request.id)).toEqual({ pushed: 1, pulled: 10 });
  });
});

describe('scheduler', () => {
  it('ticks: sends orders, syncs the open order, reports status; exchangeNow runs at once', async () => {
    const a = browser();
    const request = orderRequest();
    const order = await createOrderShape(request.id);
    await a.orders.add({ id: request.id, sent: 0, order, request });
    await recordChange(a, { orderId: request.id, key: `${IN}.Eigengewicht`, value: '9' });
    const clock = new Date('2026-03-01T10:00:00.000Z');
    const scheduler = new SyncScheduler({ db: a, intervalMs: 50, now: () => clock, origin: () => server.url });
    const seen: boolean[] = [];
    const unsubscribe = scheduler.subscribe(() => seen.push(scheduler.getStatus().running));
    scheduler.setOpenOrder(request.id);
    scheduler.start();
    try {
      await vi.waitFor(() => expect(scheduler.getStatus().lastSync).toBe(clock.toISOString()), { timeout: 90_000 });
      await vi.waitFor(() => expect(scheduler.getStatus()).toMatchObject({ online: true, unsentCount: 0 }));
      expect(seen).toContain(true);
      expect((await a.orders.get(request.id))?.sent).toBe(1);
      expect((await localState(a, request.id)).lastCounter).toBe(11);
    } finally {
      scheduler.stop();
      unsubscribe();
    }

    // Leaving the edit route: the newest edit goes at once, not at the next tick 60 s later.
    const slow = new SyncScheduler({ db: a, intervalMs: 60_000, now: () => clock, origin: () => server.url });
    slow.setOpenOrder(request.id);
    slow.start();
    try {
      await vi.waitFor(() => expect(slow.getStatus().lastSync).toBe(clock.toISOString()));
      const edit = await recordChange(a, { orderId: request.id, key: `${IN}.Eigengewicht`, value: '10' });
      // The indicator follows the database at once.
      await vi.waitFor(() => expect(slow.getStatus().unsentCount).toBe(1));
      clock.setTime(clock.getTime() + 60_000);
      await slow.exchangeNow();
      expect(await a.orderResults.get(edit.id)).toMatchObject({ sent: 1, counter: 12 });
      expect(slow.getStatus()).toMatchObject({ lastSync: clock.toISOString(), unsentCount: 0, running: false });
    } finally {
      slow.stop();
    }
  });

  it('sends the waiting changes of orders that are not open', async () => {
    const a = browser();
    const closed = await createOrder();
    const open = await createOrder();
    const change = await recordChange(a, { orderId: closed.id, key: `${IN}.Eigengewicht`, value: '8' });
    const scheduler = new SyncScheduler({ db: a, intervalMs: 60_000, origin: () => server.url });
    scheduler.setOpenOrder(open.id);
    await scheduler.exchangeNow();
    expect(await a.orderResults.get(change.id)).toMatchObject({ sent: 1, counter: 11 });
  });

  it("counts the user's waiting changes on asking, before it has started (the sign-out's warning)", async () => {
    const a = browser();
    const order = await createOrder();
    await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '7' });
    // Another user's change on this tablet is theirs to send: not counted.
    await recordChanges(a, [{ orderId: order.id, key: `${OUT}.Eigengewicht`, value: '6' }], 999);
    const scheduler = new SyncScheduler({ db: a, intervalMs: 60_000, origin: () => CLOSED_PORT });
    // Not started: the live count has no answer yet.
    expect(scheduler.getStatus().unsentCount).toBe(0);
    await expect(scheduler.countUnsentNow()).resolves.toBe(1);
  });

  it('reports offline when the site does not answer and sends nothing', async () => {
    const a = browser();
    const order = await createOrder();
    await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '9' });
    const scheduler = new SyncScheduler({ db: a, intervalMs: 60_000, origin: () => CLOSED_PORT });
    scheduler.setOpenOrder(order.id);
    await scheduler.exchangeNow();
    expect(scheduler.getStatus()).toMatchObject({ online: false, lastSync: null, running: false });
    expect(await a.orderResults.where('sent').equals(0).count()).toBe(1);
  });

  it("says when the page's first loads are done: the order open at the start pulled, not just a first exchange", async () => {
    const a = browser();
    const order = await createOrder();
    const onServer = await serverActivities(order.id);
    expect(onServer.length).toBeGreaterThan(0);
    let signedIn = false;
    const scheduler = new SyncScheduler({
      db: a,
      intervalMs: 60_000,
      origin: () => server.url,
      isSignedIn: () => signedIn,
    });
    const settled = new Set<string>();
    const watch = (name: string, orderId: string | null) =>
      void scheduler.firstLoadsEnded(orderId).then(() => settled.add(name));
    // A task later, every reaction to a settled promise has run.
    const reactions = () => new Promise((next) => setTimeout(next, 0));
    watch('no order', null);
    watch('the order', order.id);
    watch('an order never opened', 'never-opened');

    // Signed out, a tick checks the network only: no exchange, nothing settles.
    await scheduler.exchangeNow();
    await reactions();
    expect([...settled]).toEqual([]);

    // The page started at the order's address, but the editor has not named it yet (its chunk still loading): the
    // first exchange ends the wait of a page without an order only.
    signedIn = true;
    await scheduler.exchangeNow();
    await reactions();
    expect([...settled]).toEqual(['no order']);
    expect(await a.orderResults.where('orderId').equals(order.id).count()).toBe(0);

    // The editor names it: once that exchange has ended, its activities are all stored.
    scheduler.setOpenOrder(order.id);
    const exchange = scheduler.exchangeNow();
    await scheduler.firstLoadsEnded(order.id);
    expect(await a.orderResults.where('orderId').equals(order.id).count()).toBe(onServer.length);
    await exchange;
    await reactions();
    // An order the editor never named (a redirect) does not hold the wait past the second exchange.
    expect([...settled].sort()).toEqual(['an order never opened', 'no order', 'the order']);
    // Asked later, the answer comes at once.
    await scheduler.firstLoadsEnded(order.id);
  });

  it('keeps the newest online check: an older one failing later does not turn the banner on again', async () => {
    // A site that holds its answers until told to drop them: a check begun while the network was gone.
    const held: ServerResponse[] = [];
    const hanging = createServer((_request, response) => void held.push(response));
    await new Promise<void>((listening) => hanging.listen(0, '127.0.0.1', listening));
    const { port } = hanging.address() as AddressInfo;
    let origin = `http://127.0.0.1:${port}`;
    try {
      const scheduler = new SyncScheduler({ db: browser(), origin: () => origin, isSignedIn: () => false });
      const older = scheduler.tick();
      await vi.waitFor(() => expect(held).toHaveLength(1));
      // The network is back: a newer check answers.
      origin = server.url;
      await scheduler.tick();
      expect(scheduler.getStatus().online).toBe(true);
      // The older check now fails.
      held[0]!.destroy();
      await older;
      expect(scheduler.getStatus().online).toBe(true);
    } finally {
      hanging.closeAllConnections();
      await new Promise((closed) => hanging.close(closed));
    }
  });

  it('an exchange failing after a newer check found the site leaves the banner off and runs again at once', async () => {
    const a = browser();
    const order = await createOrder();
    const change = await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '11' });
    // The API behind a site that holds its answers until told to drop them: the network went while a call waited.
    const held: ServerResponse[] = [];
    const hanging = createServer((_request, response) => void held.push(response));
    await new Promise<void>((listening) => hanging.listen(0, '127.0.0.1', listening));
    setApiOrigin(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}`);
    let origin = server.url;
    try {
      const scheduler = new SyncScheduler({ db: a, intervalMs: 60_000, origin: () => origin });
      scheduler.setOpenOrder(order.id);
      const exchange = scheduler.tick();
      await vi.waitFor(() => expect(held).toHaveLength(1));
      // A check while the network is gone, then one after it came back; the exchange still waits.
      origin = CLOSED_PORT;
      await scheduler.tick();
      expect(scheduler.getStatus().online).toBe(false);
      origin = server.url;
      await scheduler.tick();
      expect(scheduler.getStatus()).toMatchObject({ online: true, running: true });
      // The waiting call now fails; the API answers again.
      setApiOrigin(server.url);
      held[0]!.destroy();
      await exchange;
      expect(scheduler.getStatus()).toMatchObject({ online: true, running: false });
      // Run again at once, not at the next tick: the change is sent.
      expect(await a.orderResults.get(change.id)).toMatchObject({ sent: 1 });
    } finally {
      setApiOrigin(server.url);
      hanging.closeAllConnections();
      await new Promise((closed) => hanging.close(closed));
    }
  });

  it('does nothing but the online check when nobody is signed in', async () => {
    const a = browser();
    const order = await createOrder();
    await recordChange(a, { orderId: order.id, key: `${IN}.Eigengewicht`, value: '9' });
    const scheduler = new SyncScheduler({ db: a, origin: () => server.url, isSignedIn: () => false });
    scheduler.setOpenOrder(order.id);
    await scheduler.exchangeNow();
    expect(scheduler.getStatus()).toMatchObject({ online: true, lastSync: null });
    expect(await a.orderResults.where('sent').equals(0).count()).toBe(1);
  });
});

/** A local order as the add page would keep it before the server knows it. */
async function createOrderShape(id: string) {
  return orderSchema.parse({
    id,
    number: '',
    externalOrderNumber: 'EXT-SYNC',
    maintenanceNumber: WAGON_NUMBER,
    contractor: 'DBC',
    type: 'WAGON',
    status: 'CREATED',
    created: new Date().toISOString(),
    importedDate: null,
    assetId: null,
    wagonNumber: WAGON_NUMBER,
    wheelsetNumber: null,
    lastCounter: 0,
  });
}
