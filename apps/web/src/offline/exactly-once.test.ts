// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process behind a fault-injecting HTTP proxy; jsdom would get
// in the way of both.
import 'fake-indexeddb/auto';
import type { OrderStatus, UndoAction } from '@vers/domain';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWagonOrder, OUT } from '../../../server/src/test/orders.ts';
import { type Fault, PROPERTY_SEED, faultArb, sleep } from './test-support/fault-proxy.ts';
import { editedField, type FieldEdit, fieldEditArbs, WAGON_FIELDS } from './test-support/wagon-edits.ts';
// Loads the server, then test-node-globals.ts, then the modules that touch the session.
import { serverFold, setUpProxiedServer, unsentCount } from './test-support/server-helpers.ts';
// Before anything that imports the session (order results, api, sync): it needs local storage and a window.
import './test-node-globals.ts';
import { localState, recordChange, undoLastChange } from './order-results.ts';
import type { VersDb } from './versdb.ts';
import { sessionStore } from '../app/session.ts';
import { pullOrderResults, pushOrderResults, syncOrder } from './sync.ts';

/*
 * Exactly once under a hostile network: a proxy between the browser code and the real server drops requests,
 * applies them but loses the answer (also after holding them, the way a timed-out call ends), sends them twice or
 * delays them. Whatever it does, once the browsers have sent everything the server must hold every change once, in
 * the order each browser made them, and every browser must fold to what the server folds to.
 */

/** Faults of the proxy between the browser code and the server: drops, lost answers, duplicates, delays. */
const FAULTS = faultArb({ pass: 4, drop: 2, lose: 3, duplicate: 2, delay: 1 });

// ---------------------------------------------------------------------------------------------------------------
// The browsers' scripts

const ORDERS = 2;
const STATUSES: readonly OrderStatus[] = ['IN_WORK', 'IN_QA'];

type Step =
  /** A field change; value null deletes the field. */
  | ({ kind: 'edit'; b: number; o: number } & FieldEdit)
  | { kind: 'undo'; b: number; o: number }
  /** A status change by browser 0 (the only one changing statuses: the server refuses a change to the same one). */
  | { kind: 'status'; o: number; status: number }
  | { kind: 'sync'; b: number; o: number; pushOnly: boolean }
  /** The user undoes while the browser's exchange is under way. */
  | { kind: 'undoDuringSync'; b: number; o: number; afterMs: number }
  /** Both browsers exchange the order at the same moment. */
  | { kind: 'together'; o: number };

const b = fc.integer({ min: 0, max: 1 });
const o = fc.integer({ min: 0, max: ORDERS - 1 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('edit' as const), b, o, ...fieldEditArbs(WAGON_FIELDS) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('undo' as const), b, o }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('status' as const), o, status: fc.integer({ min: 0, max: 1 }) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('sync' as const), b, o, pushOnly: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('undoDuringSync' as const),
      b,
      o,
      afterMs: fc.integer({ min: 0, max: 40 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('together' as const), o }) },
);

const scenarioArb = fc.record({
  browsers: fc.integer({ min: 1, max: 2 }),
  steps: fc.array(stepArb, { minLength: 4, maxLength: 22 }),
  faults: fc.array(FAULTS, { minLength: 10, maxLength: 60 }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------------------------

const env = setUpProxiedServer();
let token: string;

beforeAll(async () => {
  // A workshop admin: the only role besides QA that may set IN_WORK as well as IN_QA.
  const session = await env.signIn('werkadmin');
  sessionStore.set(session);
  token = session.token;
}, 60_000);

/** What the server holds for an order, read past the proxy and the code under test. */
const activitiesOnServer = (orderId: string) => env.activities(token, orderId);

/** A change a browser recorded, in the order the browsers recorded them. */
interface Recorded {
  id: string;
  browser: number;
  orderId: string;
  /** Position among all changes of the run: within a browser and an order, the order its user made them in. */
  seq: number;
  status?: OrderStatus;
}

interface Run {
  dbs: VersDb[];
  orderIds: string[];
  recorded: Recorded[];
  undos: UndoAction[];
  /** The last status each order was given (by browser 0). */
  lastStatus: Map<string, OrderStatus>;
}

/** Plays a scenario with the proxy's faults on, then lets every browser send and fetch everything without faults. */
async function play(scenario: Scenario): Promise<Run> {
  const run: Run = { dbs: [], orderIds: [], recorded: [], undos: [], lastStatus: new Map() };
  for (let i = 0; i < scenario.browsers; i += 1) {
    run.dbs.push(env.browserDb('versdb-once'));
  }
  for (let i = 0; i < ORDERS; i += 1) run.orderIds.push((await createWagonOrder(env.server, token)).id);
  const dbOf = (index: number) => run.dbs[index % run.dbs.length]!;
  const record = async (browser: number, orderId: string, change: Parameters<typeof recordChange>[1]) => {
    const row = await recordChange(dbOf(browser), change);
    run.recorded.push({
      id: row.id,
      browser: browser % run.dbs.length,
      orderId,
      seq: run.recorded.length,
      ...(change.activityType ? { status: change.value as OrderStatus } : {}),
    });
  };
  const undo = async (browser: number, orderId: string) => {
    const action = await undoLastChange(dbOf(browser), orderId);
    if (action) run.undos.push({ kind: action.kind, id: action.id });
  };

  env.proxy.faults = [...scenario.faults];
  for (const step of scenario.steps) {
    const orderId = run.orderIds[step.o]!;
    switch (step.kind) {
      case 'edit':
        await record(step.b, orderId, { orderId, ...editedField(WAGON_FIELDS, step) });
        break;
      case 'undo':
        await undo(step.b, orderId);
        break;
      case 'status': {
        // As the status dialog does: never the status the order shows already.
        const shown = (await localState(dbOf(0), orderId)).status;
        const wanted = STATUSES[step.status]!;
        const status = wanted === shown ? STATUSES[1 - step.status]! : wanted;
        await record(0, orderId, {
          orderId,
          key: '$.status',
          value: status,
          activityType: 'ORDER_STATUS_MODIFICATION',
        });
        run.lastStatus.set(orderId, status);
        break;
      }
      case 'sync':
        await (step.pushOnly ? pushOrderResults : syncOrder)(dbOf(step.b), orderId);
        break;
      case 'undoDuringSync':
        await Promise.all([syncOrder(dbOf(step.b), orderId), sleep(step.afterMs).then(() => undo(step.b, orderId))]);
        break;
      case 'together':
        await Promise.all(run.dbs.map((db) => syncOrder(db, orderId)));
        break;
    }
  }

  // The network heals: push then pull, in rounds, until nothing is waiting anywhere; then everyone pulls once more.
  env.proxy.faults = [];
  for (let round = 0; round < 5; round += 1) {
    for (const db of run.dbs) {
      for (const orderId of run.orderIds) {
        await pushOrderResults(db, orderId);
        await pullOrderResults(db, orderId);
      }
    }
    const waiting = await Promise.all(run.dbs.map(unsentCount));
    if (waiting.every((n) => n === 0)) break;
  }
  for (const db of run.dbs) {
    expect(await unsentCount(db), `${db.name} still has unsent rows after the network healed`).toBe(0);
    for (const orderId of run.orderIds) await pullOrderResults(db, orderId);
  }
  return run;
}

/** The guarantees in docs/requirements/sync.md#data-flow-push: each change once, in each browser's order, one state. */
async function expectExactlyOnce(run: Run): Promise<void> {
  for (const orderId of run.orderIds) {
    const onServer = await activitiesOnServer(orderId);
    const byId = new Map(onServer.map((activity) => [activity.id, activity]));
    // Unique ids and dense counters 1..n.
    expect(byId.size).toBe(onServer.length);
    expect(onServer.map((activity) => activity.co)).toEqual(onServer.map((_, i) => i + 1));

    // Nothing the browsers did not make: beyond the order's creation data, every activity is a recorded change
    // or the server's own restore for a revert, and each revert was carried out once.
    const recorded = run.recorded.filter((r) => r.orderId === orderId);
    const recordedIds = new Set(recorded.map((r) => r.id));
    const restores = onServer.filter((activity) => activity.rs !== null);
    for (const activity of onServer.slice(10)) {
      if (activity.rs === null) expect(recordedIds.has(activity.id), `unknown activity ${activity.co}`).toBe(true);
    }
    expect(new Set(restores.map((activity) => activity.rs)).size, 'a revert applied twice').toBe(restores.length);
    for (const restore of restores) expect(onServer[restore.rs! - 1]?.re).toBe(true);

    // Nothing lost: a change nobody undid is on the server and in effect.
    const undone = new Set(run.undos.map((action) => action.id));
    for (const r of recorded.filter((x) => !undone.has(x.id))) {
      expect(byId.get(r.id), `change ${r.seq} lost`).toMatchObject({ re: false });
    }

    // Each browser's changes that reached the server hold counters in the order the browser made them.
    for (let browser = 0; browser < run.dbs.length; browser += 1) {
      const mine = recorded.filter((r) => r.browser === browser && byId.has(r.id));
      const counters = mine.map((r) => byId.get(r.id)!.co);
      expect(counters, `counters of browser ${browser} in its own order`).toEqual([...counters].sort((x, y) => x - y));
    }

    // Status changes are not undone: each is on the server once and the last one decides.
    for (const r of recorded.filter((x) => x.status)) {
      expect(byId.get(r.id), `status change ${r.status} lost`).toMatchObject({
        re: false,
        t: 'ORDER_STATUS_MODIFICATION',
      });
    }
    const expectedStatus = run.lastStatus.get(orderId) ?? null;
    expect(serverFold(onServer).status).toBe(expectedStatus);
    const order = await env.server.request<{ status: string }>('GET', `/api/v1/orders/${orderId}`, { token });
    expect(order.body.status).toBe(expectedStatus ?? 'CREATED');

    // Every browser holds exactly the server's activities, each once, and folds to the server's state.
    const expected = serverFold(onServer);
    for (const db of run.dbs) {
      const local = await db.orderResults.where('orderId').equals(orderId).toArray();
      expect(local.map((row) => row.id).sort()).toEqual([...byId.keys()].sort());
      expect(await localState(db, orderId)).toEqual(expected);
    }
  }
}

/** An undone change is not in effect on the server: it never reached it, or it is reverted there. */
async function expectUndosKept(run: Run): Promise<void> {
  for (const orderId of run.orderIds) {
    const byId = new Map((await activitiesOnServer(orderId)).map((activity) => [activity.id, activity]));
    for (const action of run.undos) {
      const activity = byId.get(action.id);
      if (activity) expect(activity.re, `undo (${action.kind}) of ${action.id} lost`).toBe(true);
    }
  }
}

describe('exactly once through a faulty network', () => {
  it('every change reaches the server once, in each browser’s order, and all fold to the server’s state', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        await expectExactlyOnce(await play(scenario));
      }),
      { numRuns: Number(process.env.VERS_PROPERTY_RUNS ?? 15), interruptAfterTimeLimit: 30_000, ...PROPERTY_SEED },
    );
    // The property is only worth something if the faults struck, the nasty one included.
    expect(env.proxy.struck.drop).toBeGreaterThan(0);
    expect(env.proxy.struck.duplicate).toBeGreaterThan(0);
    expect(env.proxy.lostWrites).toBeGreaterThan(0);
  }, 60_000);

  it('an undo stays undone although the answer to the change’s push was lost', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        await expectUndosKept(await play(scenario));
      }),
      // Shrinking stops after 20 s with what it has: the test below is the minimal case.
      { numRuns: Number(process.env.VERS_PROPERTY_RUNS ?? 20), interruptAfterTimeLimit: 20_000, ...PROPERTY_SEED },
    );
  }, 60_000);

  // The property above, shrunk to its core. An undo that only deletes the unsent row locally loses the undo when
  // the server has the change after all (the push's answer was lost): the next pull brings the undone value back.
  it.each([
    { fault: { kind: 'lose', holdMs: 0 } as Fault, applied: true },
    { fault: { kind: 'lose', holdMs: 200 } as Fault, applied: true },
    { fault: { kind: 'drop' } as Fault, applied: false },
  ])('keeps the undo of a change whose push failed ($fault.kind, $fault.holdMs ms)', async ({ fault, applied }) => {
    const db = env.browserDb('versdb-once');
    const { id: orderId } = await createWagonOrder(env.server, token);
    const key = `${OUT}.Eigengewicht`;
    await recordChange(db, { orderId, key, value: '22000' });
    expect(await syncOrder(db, orderId)).toMatchObject({ pushed: 1 });

    const undone = await recordChange(db, { orderId, key, value: '22999' });
    env.proxy.faults = [fault];
    expect(await pushOrderResults(db, orderId)).toMatchObject({ pushed: 0, offline: true });
    expect(env.proxy.faults).toEqual([]);
    // Whether the server has it, the browser cannot know.
    const before = (await activitiesOnServer(orderId)).find((a) => a.id === undone.id);
    if (applied) expect(before).toMatchObject({ co: 12, re: false });
    else expect(before).toBeUndefined();

    expect(await undoLastChange(db, orderId)).toMatchObject({ id: undone.id });
    expect((await localState(db, orderId)).values[key]).toMatchObject({ value: '22000' });

    await syncOrder(db, orderId);
    await syncOrder(db, orderId);
    expect(await unsentCount(db)).toBe(0);
    const onServer = await activitiesOnServer(orderId);
    // The user's undo survives the exchange: on the server and in the browser.
    expect(serverFold(onServer).values[key]).toMatchObject({ value: '22000' });
    expect(await localState(db, orderId)).toEqual(serverFold(onServer));
    const after = onServer.find((a) => a.id === undone.id);
    if (after) expect(after.re).toBe(true);
    else expect(applied).toBe(false);
  });
});
