import {
  ORDER_SORTS,
  type ListedOrder,
  type OrderChanges,
  type OrderPage,
  checkDigit,
  compareOrders,
  matchesOrderSearch,
  orderChangesSchema,
  orderPageSchema,
  statusesOf,
} from '@vers/domain';
import { eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, users } from '../db/schema.ts';
import { OUT, push, signOff } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';
import { orderChanges } from './list.ts';

/*
 * The order list at scale (docs/requirements/orders.md#order-list-at-scale): pages sorted, filtered and searched by
 * the domain's rules, and what changed since a cursor, with nothing missed when orders change between two pages.
 * Runs on PGlite and, in CI, on PostgreSQL (TEST_DATABASE_URL).
 */

let server: TestServer;
let staff: string;
let workshopId: number;

/** A number of a given series with its check digit: `prefix` of 11 digits or fewer, filled from `i`. */
const vehicleNumber = (prefix: string, i: number) => {
  const eleven = `${prefix}${String(i).padStart(11 - prefix.length, '0')}`;
  return `${eleven}${checkDigit(eleven)}`;
};

async function createOrder(overrides: Record<string, unknown>): Promise<{ id: string; number: string }> {
  const res = await server.request<{ id: string; number: string }>('POST', '/api/v1/orders', {
    token: staff,
    body: { id: randomUUID(), ...overrides },
  });
  if (res.status !== 200) throw new Error(`order not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const wagon = (i: number, extra: Record<string, unknown> = {}) => {
  const number = vehicleNumber('3180', i);
  return createOrder({
    type: 'WAGON',
    maintenanceNumber: number,
    wagon: { number, wheelsetsOutgoing: [1, 2].map((w) => ({ number: vehicleNumber('4', i * 10 + w) })) },
    ...extra,
  });
};

const wheelset = (i: number, extra: Record<string, unknown> = {}) => {
  const number = vehicleNumber('48', i);
  return createOrder({ type: 'WHEELSET', maintenanceNumber: number, wheelset: { number }, ...extra });
};

async function page(query: Record<string, string | number>): Promise<OrderPage> {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await server.request('GET', `/api/v1/orders/page?${params.toString()}`, { token: staff });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return orderPageSchema.parse(res.body);
}

/** Every order the query finds, read in pages of `size`. */
async function allPages(query: Record<string, string | number>, size = 4): Promise<ListedOrder[]> {
  const found: ListedOrder[] = [];
  for (let offset = 0; ; offset += size) {
    const answer = await page({ ...query, offset, limit: size });
    found.push(...answer.orders);
    if (answer.orders.length < size) {
      expect(answer.total).toBe(found.length);
      return found;
    }
  }
}

async function setStatus(orderId: string, status: string, user = 'werkadmin') {
  const token = await server.signIn(user);
  const res =
    status === 'DONE' || status === 'DONE_ARCHIVED'
      ? await signOff(server, token, orderId, { status })
      : await server.request('POST', `/api/v1/orders/${orderId}/status`, { token, body: { status } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function changes(query: Record<string, string> = {}): Promise<OrderChanges> {
  const params = new URLSearchParams(query);
  const res = await server.request('GET', `/api/v1/orders/changes?${params.toString()}`, { token: staff });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return orderChangesSchema.parse(res.body);
}

/** A whole exchange through the route: every page, the orders sent, the deletions, the cursor at its end. */
async function exchange(cursor?: string) {
  let answer = await changes(cursor ? { cursor } : {});
  const sent = [...answer.orders];
  const deleted = [...answer.deleted];
  while (answer.more) {
    answer = await changes({ page: answer.next });
    sent.push(...answer.orders);
    deleted.push(...answer.deleted);
  }
  return { full: answer.full, sent, deleted, cursor: answer.next };
}

beforeAll(async () => {
  server = await startTestServer();
  staff = await server.signIn('staff');
  const [row] = await server.database.db
    .select({ workshopId: users.workshopId })
    .from(users)
    .where(eq(users.username, 'staff'));
  workshopId = row!.workshopId!;
  // A workshop's mixed list: wagons and wheelsets, contractors, external numbers (one with a character beyond
  // the digits), and statuses along the life cycle.
  const contractors = ['DBC', 'RCA', 'SBB', '', 'DBC', 'ÖBB'];
  for (let i = 1; i <= 6; i++) {
    await wagon(i, { contractor: contractors[i - 1], externalOrderNumber: i % 2 ? `E-${7 - i}` : `e-${i}` });
    await wheelset(i, { contractor: contractors[6 - i], externalOrderNumber: i === 3 ? '' : `W${i}` });
  }
  const all = await allPages({});
  await setStatus(all[0]!.id, 'IN_WORK');
  await setStatus(all[1]!.id, 'IN_QA');
  await setStatus(all[2]!.id, 'DONE');
  await setStatus(all[3]!.id, 'DONE_ARCHIVED', all[3]!.type === 'WAGON' ? 'wagonqa' : 'wheelsetqa');
  await setStatus(all[4]!.id, 'IN_CREATION');
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('a page of the order list', () => {
  it('sorts by every column both ways as the domain rule does, pages never overlapping', async () => {
    const everything = await allPages({}, 100);
    expect(everything.length).toBeGreaterThanOrEqual(12);
    for (const sort of ORDER_SORTS) {
      for (const direction of ['asc', 'desc'] as const) {
        const paged = await allPages({ sort, direction });
        const expected = [...everything].sort(compareOrders(sort, direction)).map((order) => order.id);
        expect(
          paged.map((order) => order.id),
          `${sort} ${direction}`,
        ).toEqual(expected);
      }
    }
  });

  it('filters by status: open, done, or one status as users see it', async () => {
    const everything = await allPages({}, 100);
    for (const status of ['open', 'done', 'IN_WORK', 'DONE', 'CREATED'] as const) {
      const found = await allPages({ status });
      const expected = everything.filter((order) => statusesOf(status).includes(order.status as never));
      expect(found.map((order) => order.id).sort(), status).toEqual(expected.map((order) => order.id).sort());
      expect(found.length, status).toBeGreaterThan(0);
    }
  });

  it('finds a part of a wagon, wheelset or order number, and a wagon by a wheelset it carries', async () => {
    const everything = await allPages({}, 100);
    const aWagon = everything.find((order) => order.type === 'WAGON')!;
    const itsWheelset = aWagon.wheelsetNumbers[0]!;
    // A wheelset mounted later, by an edit: the wagon is found by it too.
    const mounted = vehicleNumber('49', 77);
    const key = `${OUT}.Understructure.WheelsetCollection.Wheelset[5].Wheelsetnumber`;
    const res = await server.request('POST', '/api/v1/activity', {
      token: staff,
      body: push(aWagon.id, key, `${mounted.slice(0, 2)} ${mounted.slice(2, 4)} ${mounted.slice(4)}`),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const afterEdit = await allPages({}, 100);
    for (const search of [
      aWagon.maintenanceNumber.slice(3, 9),
      `${aWagon.maintenanceNumber.slice(0, 2)} ${aWagon.maintenanceNumber.slice(2, 4)}-${aWagon.maintenanceNumber.slice(4, 8)}`,
      itsWheelset.slice(-6),
      mounted.slice(2, 9),
      aWagon.number,
      aWagon.number.replace('-', '').slice(2),
      '%',
      '_',
      '4',
    ]) {
      const found = await allPages({ search });
      const expected = afterEdit.filter((order) => matchesOrderSearch(order, search)).map((order) => order.id);
      expect(found.map((order) => order.id).sort(), `search ${search}`).toEqual([...expected].sort());
    }
    expect((await allPages({ search: mounted })).map((order) => order.id)).toEqual([aWagon.id]);
    expect(await allPages({ search: '%' })).toEqual([]);
  });

  it('refuses a query outside its bounds with 400 and the field', async () => {
    for (const [query, field] of [
      ['limit=0', 'querystring.limit'],
      ['limit=101', 'querystring.limit'],
      ['sort=colour', 'querystring.sort'],
      ['status=LOST', 'querystring.status'],
      [`search=${'1'.repeat(51)}`, 'querystring.search'],
    ] as const) {
      const res = await server.request('GET', `/api/v1/orders/page?${query}`, { token: staff });
      expect(res, query).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: [field] } });
    }
  });
});

describe('what changed since a cursor', () => {
  it('first sends the orders kept for offline work, then only what changed, deletions as ids', async () => {
    const first = await exchange();
    expect(first.full).toBe(true);
    const everything = await allPages({}, 100);
    // Kept: the open ones and those changed lately (every order here is recent, the done ones too).
    expect(first.sent.map((order) => order.id).sort()).toEqual(everything.map((order) => order.id).sort());

    const quiet = await exchange(first.cursor);
    expect(quiet).toMatchObject({ full: false, sent: [], deleted: [] });

    const edited = everything[5]!;
    const gone = everything[6]!;
    // An edit of a field changes nothing the list shows: the order does not come again for it.
    const res = await server.request('POST', '/api/v1/activity', {
      token: staff,
      body: push(edited.id, `${OUT}.Bemerkung`, 'changed'),
    });
    expect(res.status).toBe(200);
    expect(await exchange(quiet.cursor)).toMatchObject({ sent: [], deleted: [] });
    await setStatus(edited.id, edited.status === 'IN_QA' ? 'IN_WORK' : 'IN_QA');
    expect((await server.request('DELETE', `/api/v1/orders/${gone.id}`, { token: staff })).status).toBe(204);
    const created = await wheelset(50);
    const next = await exchange(quiet.cursor);
    expect(next.full).toBe(false);
    expect(next.sent.map((order) => order.id).sort()).toEqual([edited.id, created.id].sort());
    expect(next.deleted).toEqual([gone.id]);
    expect(next.sent.find((order) => order.id === edited.id)?.status).not.toBe(edited.status);
  });

  it('leaves done orders untouched for the offline days out of a first exchange', async () => {
    const old = await wagon(90);
    await setStatus(old.id, 'DONE');
    await server.database.db
      .update(orders)
      .set({ lastModified: sql`now() - interval '31 days'` })
      .where(eq(orders.id, old.id));
    const first = await exchange();
    expect(first.sent.map((order) => order.id)).not.toContain(old.id);
    // Changed again, it comes with the next exchange.
    await setStatus(old.id, 'IN_QA');
    const next = await exchange(first.cursor);
    expect(next.sent.map((order) => order.id)).toEqual([old.id]);
  });

  it('starts over with everything to keep for a cursor of another database, a restored one, or none it knows', async () => {
    const { cursor } = await exchange();
    const [database, generation, xmin] = cursor.split('.') as [string, string, string];
    for (const other of [
      `${randomUUID()}.${generation}.${xmin}`,
      `${database}.${Number(generation) + 1}.${xmin}`,
      `${database}.${generation}.${BigInt(xmin) + 1_000_000n}`,
      'not-a-cursor',
    ]) {
      const answer = await exchange(other);
      expect(answer.full, other).toBe(true);
      expect(answer.sent.length, other).toBeGreaterThan(0);
    }
    const res = await server.request('GET', '/api/v1/orders/changes?page=1.2.3', { token: staff });
    expect(res).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: ['querystring.page'] } });
  });

  it('misses nothing when orders change, come and go between two pages', async () => {
    const db = server.database.db;
    const { cursor } = await exchange();
    const a = await wagon(201);
    const b = await wagon(202);
    const c = await wagon(203);
    const d = await wagon(204);
    // Pages of two: a and b on the first.
    const first = await orderChanges(db, workshopId, { cursor }, 2);
    expect(first.more).toBe(true);
    expect(first.orders.map((order) => order.id)).toEqual([a.id, b.id]);
    // Between the pages: a (sent already) and c (not yet) change, d goes, e comes.
    for (const order of [a, c]) await setStatus(order.id, 'IN_WORK');
    expect((await server.request('DELETE', `/api/v1/orders/${d.id}`, { token: staff })).status).toBe(204);
    const e = await wagon(205);
    const sent = [...first.orders];
    const deleted: string[] = [];
    let answer = first;
    while (answer.more) {
      answer = await orderChanges(db, workshopId, { page: answer.next }, 2);
      sent.push(...answer.orders);
      deleted.push(...answer.deleted);
    }
    // Whatever this exchange did not bring, the next one does.
    const next = await orderChanges(db, workshopId, { cursor: answer.next }, 100);
    sent.push(...next.orders);
    deleted.push(...next.deleted);
    const latest = (id: string) => sent.filter((order) => order.id === id).at(-1);
    expect(latest(a.id)?.status).toBe('IN_WORK');
    expect(latest(c.id)?.status).toBe('IN_WORK');
    expect(latest(b.id)).toBeDefined();
    expect(latest(e.id)).toBeDefined();
    expect(deleted).toContain(d.id);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'sends again, with the next exchange, a change whose transaction was still running when an exchange began',
    async () => {
      const db = server.database.db;
      const { cursor } = await exchange();
      const target = await wagon(301);
      const settled = await exchange(cursor);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const writing = new Promise<void>((resolve) => (written = resolve));
      // A transaction on another connection changes the order and stays open while an exchange runs.
      const slow = db.transaction(async (tx) => {
        await tx.update(orders).set({ contractor: 'SLOW' }).where(eq(orders.id, target.id));
        written();
        await held;
      });
      await writing;
      // A later transaction commits meanwhile: the snapshot's upper bound moves past the running one.
      const later = await wagon(302);
      const during = await exchange(settled.cursor);
      expect(during.sent.map((order) => order.id)).toContain(later.id);
      expect(during.sent.map((order) => order.contractor)).not.toContain('SLOW');
      release();
      await slow;
      const after = await exchange(during.cursor);
      expect(after.sent.find((order) => order.id === target.id)?.contractor).toBe('SLOW');
    },
  );
});
