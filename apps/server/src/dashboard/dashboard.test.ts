import {
  type Dashboard,
  DEFAULT_OPEN_LONGER_DAYS,
  ORDER_STATUSES,
  checkDigit,
  dashboardSchema,
  orderPageSchema,
  turnaroundMonths,
} from '@vers/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, orders } from '../db/schema.ts';
import { signOff } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

/*
 * The start page's figures (issue 23, part 2): counts by status, orders open longer than N days, the median turnaround
 * per month, each of the caller's workshop only. Runs on PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
let server: TestServer;
let staff: string;
let werkadmin: string;
let staff2: string;
let werkadmin2: string;
let serial = 0;

const wheelsetNumber = () => {
  const eleven = `48${String(900_000 + serial++).padStart(9, '0')}`;
  return `${eleven}${checkDigit(eleven)}`;
};

async function createOrder(token: string): Promise<string> {
  const number = wheelsetNumber();
  const res = await server.request<{ id: string }>('POST', '/api/v1/orders', {
    token,
    body: { id: randomUUID(), type: 'WHEELSET', maintenanceNumber: number, wheelset: { number } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

async function setStatus(token: string, orderId: string, status: string) {
  const res =
    status === ORDER_STATUSES.DONE
      ? await signOff(server, token, orderId)
      : await server.request('POST', `/api/v1/orders/${orderId}/status`, { token, body: { status } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function figures(token: string, query = ''): Promise<Dashboard> {
  const res = await server.request('GET', `/api/v1/dashboard${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return dashboardSchema.parse(res.body);
}

const countOf = (answer: Dashboard, status: string) => answer.byStatus.find((row) => row.status === status)!.count;

/**
 * Puts an order's creation `created` and its status changes, in their order, at the given times: the test decides
 * the turnarounds.
 */
async function backdate(orderId: string, created: Date, statusTimes: readonly Date[]) {
  const { db } = server.database;
  await db.update(orders).set({ created }).where(eq(orders.id, orderId));
  const changes = await db
    .select({ id: activities.id })
    .from(activities)
    .where(and(eq(activities.orderId, orderId), eq(activities.key, '$.status')))
    .orderBy(asc(activities.counter));
  expect(changes).toHaveLength(statusTimes.length);
  for (const [i, change] of changes.entries()) {
    await db.update(activities).set({ created: statusTimes[i]! }).where(eq(activities.id, change.id));
  }
}

const now = new Date();
const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const days = (from: Date, n: number) => new Date(from.getTime() + n * DAY_MS);
const [previousKey, currentKey] = turnaroundMonths(now).slice(-2);

let before: Dashboard;
let oldOpen: string;

beforeAll(async () => {
  server = await startTestServer();
  [staff, werkadmin, staff2, werkadmin2] = await server.signInAll(['staff', 'werkadmin', 'staff2', 'werkadmin2']);
  before = await figures(staff);

  // Workshop Nord: two open orders (20 and 10 days old), one in QA, and five done ones.
  oldOpen = await createOrder(staff);
  await setStatus(werkadmin, oldOpen, ORDER_STATUSES.IN_WORK);
  await backdate(oldOpen, days(now, -20), [days(now, -19)]);
  const newerOpen = await createOrder(staff);
  await backdate(newerOpen, days(now, -10), []);
  const inQa = await createOrder(staff);
  await setStatus(staff, inQa, ORDER_STATUSES.IN_QA);
  await backdate(inQa, days(now, -30), [days(now, -1)]);

  // Done this month after 2, 4 and (reopened, done again) 6 days: median 4. The reopened one counts from its
  // second completion, not its first (1 day).
  const doneAt = days(thisMonth, 0.01);
  for (const turnaroundDays of [2, 4]) {
    const id = await createOrder(staff);
    await setStatus(werkadmin, id, ORDER_STATUSES.DONE);
    await backdate(id, days(doneAt, -turnaroundDays), [doneAt]);
  }
  const reopened = await createOrder(staff);
  await setStatus(werkadmin, reopened, ORDER_STATUSES.DONE);
  await setStatus(werkadmin, reopened, ORDER_STATUSES.IN_WORK);
  await setStatus(werkadmin, reopened, ORDER_STATUSES.DONE);
  await backdate(reopened, days(doneAt, -6), [days(doneAt, -5), days(doneAt, -4), doneAt]);
  // Done last month after 1 and 4 days: an even count, the median between the middle two (2.5).
  for (const turnaroundDays of [1, 4]) {
    const id = await createOrder(staff);
    await setStatus(werkadmin, id, ORDER_STATUSES.DONE);
    await backdate(id, days(lastMonth, 1 - turnaroundDays), [days(lastMonth, 1)]);
  }

  // Workshop Süd: old open orders and a done one with a very long turnaround, in the same months.
  for (let i = 0; i < 3; i++) {
    const id = await createOrder(staff2);
    await backdate(id, days(now, -40), []);
  }
  const southDone = await createOrder(staff2);
  await setStatus(werkadmin2, southDone, ORDER_STATUSES.DONE);
  await backdate(southDone, days(doneAt, -90), [doneAt]);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('GET dashboard', () => {
  it('counts the own workshop’s orders by status', async () => {
    const after = await figures(staff);
    expect(after.byStatus.map((row) => row.status)).toEqual(Object.values(ORDER_STATUSES));
    const added = (status: string) => countOf(after, status) - countOf(before, status);
    expect(added(ORDER_STATUSES.CREATED)).toBe(1);
    expect(added(ORDER_STATUSES.IN_WORK)).toBe(1);
    expect(added(ORDER_STATUSES.IN_QA)).toBe(1);
    expect(added(ORDER_STATUSES.DONE)).toBe(5);
  });

  it('counts the orders not done created more than N days ago, 14 unless asked', async () => {
    const byDefault = await figures(staff);
    expect(byDefault.openLongerDays).toBe(DEFAULT_OPEN_LONGER_DAYS);
    // 20 and 30 days old (in work, in QA); the 10 days old one and the done ones do not count.
    expect(byDefault.openLongerCount - before.openLongerCount).toBe(2);
    const week = await figures(staff, '?days=7');
    expect(week.openLongerDays).toBe(7);
    expect(week.openLongerCount - before.openLongerCount).toBe(3);
    const month = await figures(staff, '?days=25');
    expect(month.openLongerCount - before.openLongerCount).toBe(1);
  });

  it('answers the median turnaround of each of the last 12 months, oldest first', async () => {
    expect(before.turnaround.every((month) => month.orders === 0 && month.medianDays === null)).toBe(true);
    const { turnaround } = await figures(staff);
    expect(turnaround.map((month) => month.month)).toEqual(turnaroundMonths(new Date()));
    const byMonth = new Map(turnaround.map((month) => [month.month, month]));
    expect(byMonth.get(currentKey!)).toMatchObject({ orders: 3 });
    expect(byMonth.get(currentKey!)!.medianDays).toBeCloseTo(4, 6);
    expect(byMonth.get(previousKey!)).toMatchObject({ orders: 2 });
    expect(byMonth.get(previousKey!)!.medianDays).toBeCloseTo(2.5, 6);
    expect(turnaround.filter((month) => month.orders > 0)).toHaveLength(2);
  });

  it('never counts another workshop’s orders', async () => {
    const nord = await figures(werkadmin);
    const south = await figures(staff2);
    const totalOf = (answer: Dashboard) => answer.byStatus.reduce((sum, row) => sum + row.count, 0);
    const [southOrders] = await server.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(orders)
      .where(sql`${orders.workshopId} = (SELECT workshop_id FROM users WHERE username = 'staff2')`);
    expect(totalOf(south)).toBe(Number(southOrders!.count));
    expect(countOf(south, ORDER_STATUSES.DONE)).toBeGreaterThanOrEqual(1);
    expect(south.openLongerCount).toBeGreaterThanOrEqual(3);
    const southCurrent = south.turnaround.find((month) => month.month === currentKey)!;
    expect(southCurrent.orders).toBe(1);
    expect(southCurrent.medianDays).toBeCloseTo(90, 6);
    // Nord's figures are those of its own orders alone: Süd's 90 days and old open orders do not move them.
    expect(nord.turnaround.find((month) => month.month === currentKey)!.medianDays).toBeCloseTo(4, 6);
    expect(nord.openLongerCount - before.openLongerCount).toBe(2);
  });

  it('refuses a bad N with 400', async () => {
    for (const bad of ['0', '-3', '2.5', 'x', '3651']) {
      const res = await server.request<{ code: string }>('GET', `/api/v1/dashboard?days=${bad}`, { token: staff });
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
    }
  });
});

describe('the order list’s "open longer than N days"', () => {
  it('finds what the dashboard counts', async () => {
    const res = await server.request('GET', '/api/v1/orders/page?status=open&olderThanDays=25&limit=100', {
      token: staff,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = orderPageSchema.parse(res.body);
    const { openLongerCount } = await figures(staff, '?days=25');
    expect(page.total).toBe(openLongerCount);
    expect(page.orders.every((order) => new Date(order.created).getTime() < Date.now() - 25 * DAY_MS)).toBe(true);
    expect(page.orders.map((order) => order.id)).not.toContain(oldOpen);
  });
});
