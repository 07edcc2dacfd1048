// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process behind a fault-injecting HTTP proxy; jsdom would get
// in the way of both.
import 'fake-indexeddb/auto';
import {
  ACTIVITY_TYPES,
  type Activity,
  changeValue,
  effectiveActivities,
  fromServerActivity,
  openConflicts,
  type OrderStatus,
  seenForEdit,
  type SignInResponse,
  statusOptions,
} from '@vers/domain';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWagonOrder, OUT } from '../../../server/src/test/orders.ts';
import { type Fault, PROPERTY_SEED, faultArb } from './test-support/fault-proxy.ts';
import {
  editedField,
  type FieldEdit,
  fieldEditArbs,
  WAGON_FIELDS,
  type WagonField,
} from './test-support/wagon-edits.ts';
// Loads the server, then test-node-globals.ts, then the modules that touch the session.
import { serverFold, setUpProxiedServer, unsentCount } from './test-support/server-helpers.ts';
// Before anything that imports the session (order results, api, sync): it needs local storage and a window.
import './test-node-globals.ts';
import { localState, orderRows, recordChange, undoLastChange } from './order-results.ts';
import type { VersDb } from './versdb.ts';
import { setApiOrigin } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { pullOrderResults, pushOrderResults, syncOrder } from './sync.ts';

/*
 * Convergence: three tablets of one workshop edit, undo and change the status of one order while offline or on a
 * bad network, in any interleaving. Once the network is back and everyone has exchanged, every tablet shows what
 * the server folds to: the same values and the same status.
 */

const CLOSED_PORT = 'http://127.0.0.1:1';

/** Faults of the proxy between the browser code and the server (as in exactly-once.test.ts). */
const FAULTS = faultArb({ pass: 3, drop: 2, lose: 2, duplicate: 2, delay: 1 });

/** The catalogued wagon fields the tablets edit, a multi-line one among them. */
const FIELDS: readonly WagonField[] = [
  ...WAGON_FIELDS,
  { key: `${OUT}.Bemerkung`, value: (n) => `Bemerkung ${n}\nzweite Zeile` },
];
/** The statuses the tablets hand the order between; DONE would make it read-only. */
const STATUSES: readonly OrderStatus[] = ['IN_WORK', 'IN_QA'];
/** Three users of the northern workshop, one tablet each: staff may only hand an order to IN_QA. */
const USERS = ['werkadmin', 'staff', 'wagonqa'] as const;

type Step =
  /** A field change; value null deletes the field. */
  | ({ kind: 'edit'; c: number } & FieldEdit)
  | { kind: 'undo'; c: number }
  /** A status change, one the status dialog offers this user for the status the tablet shows. */
  | { kind: 'status'; c: number; pick: number }
  /** An exchange: offline (nothing answers), or through the proxy with these faults on its requests. */
  | { kind: 'sync'; c: number; offline: boolean; pushOnly: boolean; faults: Fault[] };

const c = fc.integer({ min: 0, max: USERS.length - 1 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('edit' as const), c, ...fieldEditArbs(FIELDS) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('undo' as const), c }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('status' as const), c, pick: fc.integer({ min: 0, max: 1 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('sync' as const),
      c,
      offline: fc.boolean(),
      pushOnly: fc.boolean(),
      faults: fc.array(FAULTS, { maxLength: 4 }),
    }),
  },
);

const env = setUpProxiedServer();
let sessions: SignInResponse[];

beforeAll(async () => {
  sessions = await Promise.all(USERS.map((userName) => env.signIn(userName)));
}, 60_000);

const tablets = (count: number): VersDb[] => Array.from({ length: count }, () => env.browserDb('versdb-converge'));

/** Client i's user signs in on its tablet: the browser code reads the session of the tablet in use. */
const as = (client: number) => sessionStore.set(sessions[client]!);

/** What the server holds for the order, and what that folds to. */
const activitiesOnServer = (orderId: string) => env.activities(sessions[0]!.token, orderId);
const foldOnServer = async (orderId: string) => serverFold(await activitiesOnServer(orderId));

/**
 * What each recorded change's tablet held of its field when the change was made: the ids, not counters. The oracle of
 * the conflict rule reads it; changes the server made itself (creation values, reverts) are not in it and have seen
 * everything before them.
 */
const heldWhenMade = new Map<string, ReadonlySet<string>>();

/** A change on a tablet as the editor records it: with what the tablet showed of the field (its `seen`). */
async function edit(db: VersDb, orderId: string, key: string, value: string | null) {
  const rows = await orderRows(db, orderId);
  const recorded = await recordChange(db, { orderId, key, value, seen: seenForEdit(rows, key, true) });
  heldWhenMade.set(recorded.id, new Set(rows.filter((row) => row.key === key).map((row) => row.id)));
}

const pairs = (conflicts: readonly { replaced: { id: string }; by: { id: string } }[]) =>
  conflicts.map((conflict) => `${conflict.replaced.id}>${conflict.by.id}`).sort();

/**
 * The conflicts the server's log should show, worked out from what each tablet held (ids) instead of counters: a
 * change replaced a value its author had not seen when its tablet did not hold the change that stood, and a conflict
 * stays open until a change whose tablet held both.
 */
function expectedConflicts(log: readonly Activity[]): string[] {
  const saw = (change: Activity, earlier: Activity) => heldWhenMade.get(change.id)?.has(earlier.id) ?? true;
  const text = (change: Activity) => JSON.stringify(changeValue(change));
  const open = new Map<string, { replaced: Activity; by: Activity }[]>();
  const standing = new Map<string, Activity>();
  for (const change of effectiveActivities(log)) {
    if (change.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) continue;
    const list = (open.get(change.key) ?? []).filter((c) => !(saw(change, c.by) && saw(change, c.replaced)));
    const before = standing.get(change.key);
    if (before && !saw(change, before) && text(before) !== text(change)) list.push({ replaced: before, by: change });
    open.set(change.key, list);
    standing.set(change.key, change);
  }
  return pairs([...open.values()].flat());
}

/** The network is back: each tablet in turn pushes, then pulls, in rounds until nothing waits anywhere. */
async function exchangeAll(dbs: readonly VersDb[], orderId: string): Promise<number[]> {
  env.proxy.faults = [];
  setApiOrigin(env.proxyUrl);
  let waiting: number[] = [];
  for (let round = 0; round < 4; round += 1) {
    for (let pass = 0; pass < 2; pass += 1) {
      for (const [client, db] of dbs.entries()) {
        as(client);
        await pushOrderResults(db, orderId);
        await pullOrderResults(db, orderId);
      }
    }
    waiting = await Promise.all(dbs.map(unsentCount));
    if (waiting.every((n) => n === 0)) break;
  }
  // Once more, so that every tablet has the others' last changes.
  for (const [client, db] of dbs.entries()) {
    as(client);
    await pullOrderResults(db, orderId);
  }
  return waiting;
}

describe('three tablets converge, and every unseen overwrite is a conflict on every side', () => {
  it('after any interleaving of offline edits, undos, status changes and faulty exchanges', async () => {
    let foundConflicts = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 30 }), async (steps) => {
        const dbs = tablets(USERS.length);
        const { id: orderId } = await createWagonOrder(env.server, sessions[0]!.token);
        for (const step of steps) {
          const client = step.c;
          const db = dbs[client]!;
          as(client);
          switch (step.kind) {
            case 'edit': {
              const { key, value } = editedField(FIELDS, step);
              await edit(db, orderId, key, value);
              break;
            }
            case 'undo':
              await undoLastChange(db, orderId);
              break;
            case 'status': {
              const shown = (await localState(db, orderId)).status ?? 'CREATED';
              const offered = statusOptions(shown, 'WAGON', sessions[client]!.roles).filter((s) =>
                STATUSES.includes(s),
              );
              const status = offered[step.pick % Math.max(offered.length, 1)];
              if (!status) break;
              await recordChange(db, {
                orderId,
                key: '$.status',
                value: status,
                activityType: 'ORDER_STATUS_MODIFICATION',
              });
              break;
            }
            case 'sync':
              setApiOrigin(step.offline ? CLOSED_PORT : env.proxyUrl);
              env.proxy.faults = [...step.faults];
              await (step.pushOnly ? pushOrderResults : syncOrder)(db, orderId);
              break;
          }
        }

        expect(await exchangeAll(dbs, orderId), 'unsent rows left after the network came back').toEqual([0, 0, 0]);
        const expected = await foldOnServer(orderId);
        // The order row's status is the newest status activity's.
        const order = await env.server.request<{ status: string }>('GET', `/api/v1/orders/${orderId}`, {
          token: sessions[0]!.token,
        });
        expect(order.body.status).toBe(expected.status ?? 'CREATED');
        for (const [client, db] of dbs.entries()) {
          expect(await localState(db, orderId), `tablet of ${USERS[client]}`).toEqual(expected);
        }
        // Every value replaced by someone who had not seen it is a conflict, on the server and on every tablet.
        const log = (await activitiesOnServer(orderId)).map(fromServerActivity);
        const conflicts = expectedConflicts(log);
        expect(pairs(openConflicts(log)), 'the domain rule over the server log').toEqual(conflicts);
        const judged = await env.server.request<{ replaced: { id: string }; by: { id: string } }[]>(
          'GET',
          `/api/v1/activity/${orderId}/conflicts`,
          { token: sessions[0]!.token },
        );
        expect(pairs(judged.body), 'the server').toEqual(conflicts);
        for (const [client, db] of dbs.entries()) {
          expect(pairs(openConflicts(await orderRows(db, orderId))), `tablet of ${USERS[client]}`).toEqual(conflicts);
        }
        foundConflicts += conflicts.length;
      }),
      { numRuns: Number(process.env.VERS_PROPERTY_RUNS ?? 20), interruptAfterTimeLimit: 30_000, ...PROPERTY_SEED },
    );
    // Only worth something if the network really misbehaved, and the tablets really overwrote each other unseen.
    expect(env.proxy.struck.drop + env.proxy.struck.lose + env.proxy.struck.duplicate).toBeGreaterThan(3);
    expect(foundConflicts).toBeGreaterThan(0);
  }, 60_000);

  // A tablet that pushed its own change but never pulled another's change of the same field in between: its next
  // change of the field has not seen that other change, so it must not end the conflict its first change made.
  it('a tablet that pushed without pulling does not decide a conflict it never saw', async () => {
    const [a, b] = tablets(2) as [VersDb, VersDb];
    const { id: orderId } = await createWagonOrder(env.server, sessions[0]!.token);
    const key = `${OUT}.Halterkurzkennzeichen`;
    as(0);
    await syncOrder(a, orderId);
    as(1);
    await syncOrder(b, orderId);
    await edit(b, orderId, key, 'D-B');
    await syncOrder(b, orderId);
    as(0);
    await edit(a, orderId, key, 'D-A');
    await pushOrderResults(a, orderId); // A's change replaces B's, unseen
    await edit(a, orderId, key, 'D-A2'); // still without B's change on the tablet
    await syncOrder(a, orderId);
    as(1);
    await syncOrder(b, orderId);
    const log = (await activitiesOnServer(orderId)).map(fromServerActivity);
    expect(pairs(openConflicts(log))).toEqual(expectedConflicts(log));
    expect(openConflicts(log)).toHaveLength(1);
    expect(pairs(openConflicts(await orderRows(b, orderId)))).toEqual(expectedConflicts(log));
  });

  // Two tablets that hand the order to QA while offline: the second IN_QA reaches an order that is IN_QA already.
  // If the server refused it (it did: 403, IN_QA -> IN_QA), the tablet would keep it unsent and send it again at
  // every exchange, and every change made after it on that tablet would wait behind it for good.
  it('when two tablets set the same status offline, the later changes of the second still arrive', async () => {
    const [a, b] = tablets(2) as [VersDb, VersDb];
    const { id: orderId } = await createWagonOrder(env.server, sessions[0]!.token);
    const key = `${OUT}.Eigengewicht`;
    const setStatus = (db: VersDb, status: OrderStatus) =>
      recordChange(db, { orderId, key: '$.status', value: status, activityType: 'ORDER_STATUS_MODIFICATION' });

    // Both start from the server's order, then go offline: admin (a) and wagon QA (b) both set IN_QA.
    as(0);
    await syncOrder(a, orderId);
    as(2);
    await syncOrder(b, orderId);
    as(0);
    await setStatus(a, 'IN_QA');
    as(2);
    await setStatus(b, 'IN_QA');
    const later = await recordChange(b, { orderId, key, value: '22500' });

    // Back online: a first, then b; each exchanges three times.
    for (let i = 0; i < 3; i += 1) {
      as(0);
      await syncOrder(a, orderId);
      as(2);
      await syncOrder(b, orderId);
    }
    as(0);
    await syncOrder(a, orderId);

    const onServer = await activitiesOnServer(orderId);
    expect(
      onServer.find((activity) => activity.id === later.id),
      'the change made after the status',
    ).toBeDefined();
    expect(await unsentCount(b)).toBe(0);
    const expected = await foldOnServer(orderId);
    expect(expected).toMatchObject({ status: 'IN_QA', values: { [key]: { value: '22500' } } });
    expect(await localState(a, orderId)).toEqual(expected);
    expect(await localState(b, orderId)).toEqual(expected);
  });
});
