// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process behind a fault-injecting HTTP proxy; jsdom would get
// in the way of both.
import 'fake-indexeddb/auto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  foldActivities,
  type OrderState,
  type OrderStatus,
  SENT_STATES,
  type ServerActivity,
  type SignInResponse,
  signInResponseSchema,
  statusOptions,
} from '@vers/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../../server/src/test/server.ts';
import { createWagonOrder, IN, OUT } from '../../../server/src/test/orders.ts';
// Before anything that imports the session (order results, api, sync): it needs local storage and a window.
import { removeWindowStub } from './test-node-globals.ts';
import { localState, recordChange, undoLastChange } from './order-results.ts';
import { VersDb } from './versdb.ts';
import { setApiOrigin } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { fromServer, pullOrderResults, pushOrderResults, syncOrder } from './sync.ts';

/*
 * Convergence: three tablets of one workshop edit, undo and change the status of one order while offline or on a
 * bad network, in any interleaving. Once the network is back and everyone has exchanged, every tablet shows what
 * the server folds to: the same values and the same status.
 */

const CLOSED_PORT = 'http://127.0.0.1:1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------------
// A fault-injecting proxy between the browser code and the server (as in exactly-once.test.ts)

type Fault =
  | { kind: 'pass' }
  /** The request never reaches the server: the client's connection breaks. */
  | { kind: 'drop' }
  /** The server applies the request, then the client's connection breaks (also after holding it: a timeout). */
  | { kind: 'lose'; holdMs: number }
  /** The request reaches the server twice; the client gets the second answer. */
  | { kind: 'duplicate' }
  | { kind: 'delay'; ms: number };

interface Answer {
  status: number;
  contentType: string | null;
  body: Buffer;
}

class FaultProxy {
  /** Faults for the coming requests, one per request in arrival order; when used up, requests pass. */
  faults: Fault[] = [];
  readonly struck: Record<Fault['kind'], number> = { pass: 0, drop: 0, lose: 0, duplicate: 0, delay: 0 };
  private readonly http: Server;

  constructor(private readonly target: string) {
    this.http = createServer((req, res) => {
      void this.handle(req).then(
        (answer) => {
          if (!answer) return;
          res.writeHead(answer.status, answer.contentType ? { 'content-type': answer.contentType } : {});
          res.end(answer.body);
        },
        () => req.socket.destroy(),
      );
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(resolve));
  }

  private async handle(req: IncomingMessage): Promise<Answer | null> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const fault = this.faults.shift() ?? { kind: 'pass' };
    this.struck[fault.kind] += 1;
    switch (fault.kind) {
      case 'drop':
        req.socket.destroy();
        return null;
      case 'lose':
        await sleep(fault.holdMs);
        await this.forward(req, body);
        req.socket.destroy();
        return null;
      case 'duplicate':
        await this.forward(req, body);
        return this.forward(req, body);
      case 'delay':
        await sleep(fault.ms);
        return this.forward(req, body);
      default:
        return this.forward(req, body);
    }
  }

  private async forward(req: IncomingMessage, body: string): Promise<Answer> {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const res = await fetch(`${this.target}${req.url}`, {
      method: req.method,
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    return {
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: Buffer.from(await res.arrayBuffer()),
    };
  }
}

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Fault>({ kind: 'pass' }) },
  { weight: 2, arbitrary: fc.constant<Fault>({ kind: 'drop' }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('lose' as const),
      holdMs: fc.oneof(fc.constant(0), fc.integer({ min: 50, max: 300 })),
    }),
  },
  { weight: 2, arbitrary: fc.constant<Fault>({ kind: 'duplicate' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delay' as const), ms: fc.integer({ min: 50, max: 300 }) }) },
);

// ---------------------------------------------------------------------------------------------------------------

/** Catalogued wagon fields, with values that fit them (the server refuses anything else with 400). */
const FIELDS: readonly { key: string; value: (n: number) => string }[] = [
  { key: `${OUT}.Eigengewicht`, value: (n) => String(22_000 + n) },
  { key: `${IN}.Eigengewicht`, value: (n) => String(21_000 + n) },
  { key: `${OUT}.Halterkurzkennzeichen`, value: (n) => `D-H${n}` },
  { key: `${IN}.LetztesLadegut`, value: (n) => `Ladegut ${n}` },
  { key: `${OUT}.Bemerkung`, value: (n) => `Bemerkung ${n}\nzweite Zeile` },
];
/** The statuses the tablets hand the order between; DONE would make it read-only. */
const STATUSES: readonly OrderStatus[] = ['IN_WORK', 'IN_QA'];
/** Three users of the northern workshop, one tablet each: staff may only hand an order to IN_QA. */
const USERS = ['werkadmin', 'staff', 'wagonqa'] as const;

type Step =
  /** A field change; value null deletes the field. */
  | { kind: 'edit'; c: number; field: number; value: number | null }
  | { kind: 'undo'; c: number }
  /** A status change, one the status dialog offers this user for the status the tablet shows. */
  | { kind: 'status'; c: number; pick: number }
  /** An exchange: offline (nothing answers), or through the proxy with these faults on its requests. */
  | { kind: 'sync'; c: number; offline: boolean; pushOnly: boolean; faults: Fault[] };

const c = fc.integer({ min: 0, max: USERS.length - 1 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      c,
      field: fc.integer({ min: 0, max: FIELDS.length - 1 }),
      value: fc.option(fc.integer({ min: 0, max: 99 }), { freq: 6 }),
    }),
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
      faults: fc.array(faultArb, { maxLength: 4 }),
    }),
  },
);

let server: TestServer;
let proxy: FaultProxy;
let proxyUrl: string;
let sessions: SignInResponse[];
const databases: VersDb[] = [];

beforeAll(async () => {
  removeWindowStub();
  server = await startTestServer();
  proxy = new FaultProxy(server.url);
  proxyUrl = await proxy.start();
  setApiOrigin(proxyUrl);
  sessions = await Promise.all(
    USERS.map(async (userName) => {
      const res = await server.request('POST', '/api/v1/auth/signin', { body: { userName, password: DEMO_PASSWORD } });
      return signInResponseSchema.parse(res.body);
    }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(databases.map((db) => db.delete()));
  await proxy?.close();
  await server?.close();
});

function tablets(count: number): VersDb[] {
  return Array.from({ length: count }, () => {
    const db = new VersDb(`versdb-converge-${crypto.randomUUID()}`);
    databases.push(db);
    return db;
  });
}

/** Client i's user signs in on its tablet: the browser code reads the session of the tablet in use. */
const as = (client: number) => sessionStore.set(sessions[client]!);

async function serverActivities(orderId: string): Promise<ServerActivity[]> {
  const res = await server.request<ServerActivity[]>('GET', `/api/v1/activity/${orderId}`, {
    token: sessions[0]!.token,
  });
  expect(res.status).toBe(200);
  return res.body;
}

const serverFold = async (orderId: string): Promise<OrderState> =>
  foldActivities((await serverActivities(orderId)).map(fromServer));

const unsentCount = (db: VersDb) => db.orderResults.where('sent').equals(SENT_STATES.UNSENT).count();

/** The network is back: each tablet in turn pushes, then pulls, in rounds until nothing waits anywhere. */
async function exchangeAll(dbs: readonly VersDb[], orderId: string): Promise<number[]> {
  proxy.faults = [];
  setApiOrigin(proxyUrl);
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

describe('three tablets converge', () => {
  it('after any interleaving of offline edits, undos, status changes and faulty exchanges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 30 }), async (steps) => {
        const dbs = tablets(USERS.length);
        const { id: orderId } = await createWagonOrder(server, sessions[0]!.token);
        for (const step of steps) {
          const client = step.c;
          const db = dbs[client]!;
          as(client);
          switch (step.kind) {
            case 'edit': {
              const field = FIELDS[step.field]!;
              await recordChange(db, {
                orderId,
                key: field.key,
                value: step.value === null ? null : field.value(step.value),
              });
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
              setApiOrigin(step.offline ? CLOSED_PORT : proxyUrl);
              proxy.faults = [...step.faults];
              await (step.pushOnly ? pushOrderResults : syncOrder)(db, orderId);
              break;
          }
        }

        expect(await exchangeAll(dbs, orderId), 'unsent rows left after the network came back').toEqual([0, 0, 0]);
        const expected = await serverFold(orderId);
        // The order row's status is the newest status activity's.
        const order = await server.request<{ status: string }>('GET', `/api/v1/orders/${orderId}`, {
          token: sessions[0]!.token,
        });
        expect(order.body.status).toBe(expected.status ?? 'CREATED');
        for (const [client, db] of dbs.entries()) {
          expect(await localState(db, orderId), `tablet of ${USERS[client]}`).toEqual(expected);
        }
      }),
      { numRuns: Number(process.env.VERS_PROPERTY_RUNS ?? 20), interruptAfterTimeLimit: 30_000 },
    );
    // Only worth something if the network really misbehaved.
    expect(proxy.struck.drop + proxy.struck.lose + proxy.struck.duplicate).toBeGreaterThan(10);
  }, 60_000);

  // Two tablets that hand the order to QA while offline: the second IN_QA reaches an order that is IN_QA already.
  // If the server refused it (it did: 403, IN_QA -> IN_QA), the tablet would keep it unsent and send it again at
  // every exchange, and every change made after it on that tablet would wait behind it for good.
  it('when two tablets set the same status offline, the later changes of the second still arrive', async () => {
    const [a, b] = tablets(2) as [VersDb, VersDb];
    const { id: orderId } = await createWagonOrder(server, sessions[0]!.token);
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

    const onServer = await serverActivities(orderId);
    expect(
      onServer.find((activity) => activity.id === later.id),
      'the change made after the status',
    ).toBeDefined();
    expect(await unsentCount(b)).toBe(0);
    const expected = await serverFold(orderId);
    expect(expected).toMatchObject({ status: 'IN_QA', values: { [key]: { value: '22500' } } });
    expect(await localState(a, orderId)).toEqual(expected);
    expect(await localState(b, orderId)).toEqual(expected);
  });
});
