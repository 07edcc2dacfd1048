import { randomUUID } from 'node:crypto';
import { type DeadlineList, ORDER_ROOTS, ROLES } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN, OUT, createWagonOrder, push, wheelsetNumbers } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

/*
 * GET deadlines (issue 23): a workshop user gets the own workshop's orders' deadlines, a holder the keeper's wagon
 * orders' in every workshop; never another workshop's or keeper's. The values are the orders' current ones (the
 * outgoing side first, reverted changes and removed entries left out). Days are counted from the `today` given.
 */

const TODAY = '2030-01-10';
let server: TestServer;
let staff: string;
let staff2: string;
let qa: string;
let holderX: string;
let holderY: string;
let admin: string;

const get = (token: string, query: string) =>
  server.request<DeadlineList>('GET', `/api/v1/deadlines?today=${TODAY}&${query}`, { token });
const pushAs = async (token: string, orderId: string, key: string, value: string) => {
  const res = await server.request<{ co: number }>('POST', '/api/v1/activity', {
    token,
    body: push(orderId, key, value),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.co;
};
const ordersIn = (list: DeadlineList) => [...new Set(list.deadlines.map((deadline) => deadline.orderId))].sort();

const DEADLINE_OUT = `${OUT}.Revision.DatumLetzteFrist`;
const DEADLINE_IN = `${IN}.Revision.DatumLetzteFrist`;
const ids = {} as Record<
  'nordSoon' | 'nordLater' | 'nordOverdue' | 'nordWheelset' | 'sued' | 'gatxSued' | 'vtg',
  string
>;

beforeAll(async () => {
  server = await startTestServer();
  [admin, staff, staff2, qa, holderX] = await server.signInAll(['admin', 'staff', 'staff2', 'qa', 'holder']);
  const keeper = await server.request<{ id: number }>('POST', '/api/v1/keepers', {
    token: admin,
    body: { name: 'VTG Rail Europe', markings: ['VTG'] },
  });
  expect(keeper.status).toBe(201);
  const created = await server.request<{ password: string }>('POST', '/api/v1/users', {
    token: admin,
    body: {
      username: 'holder-vtg-deadlines',
      firstName: 'Vera',
      lastName: 'Halter',
      roles: [{ name: ROLES.HOLDER }],
      keeperId: keeper.body.id,
    },
  });
  expect(created.status).toBe(201);
  holderY = await server.signIn('holder-vtg-deadlines', created.body.password);

  // Nord: due in 20 days (outgoing, the incoming value is older), in 80 days, 3 days overdue, a wheelset due today.
  ids.nordSoon = (await createWagonOrder(server, staff, 2)).id;
  await pushAs(staff, ids.nordSoon, DEADLINE_IN, '2029-06-01');
  await pushAs(staff, ids.nordSoon, DEADLINE_OUT, '2030-01-30');
  await pushAs(staff, ids.nordSoon, `${OUT}.Halterkurzkennzeichen`, 'D-GATX');
  ids.nordLater = (await createWagonOrder(server, staff, 2)).id;
  await pushAs(staff, ids.nordLater, DEADLINE_OUT, '2030-03-31');
  ids.nordOverdue = (await createWagonOrder(server, staff, 2)).id;
  await pushAs(staff, ids.nordOverdue, DEADLINE_IN, '2030-01-07');
  const wheelset = await server.request<{ id: string }>('POST', '/api/v1/orders', {
    token: staff,
    body: { id: randomUUID(), type: 'WHEELSET', maintenanceNumber: wheelsetNumbers(1)[0]! },
  });
  ids.nordWheelset = wheelset.body.id;
  await pushAs(staff, ids.nordWheelset, `${ORDER_ROOTS.WHEELSET.out}.RevisionDeadline.NextDueDate`, TODAY);
  // Süd: its own order, and a GATX wagon; Nord: a VTG wagon.
  ids.sued = (await createWagonOrder(server, staff2, 2)).id;
  await pushAs(staff2, ids.sued, DEADLINE_OUT, '2030-01-15');
  ids.gatxSued = (await createWagonOrder(server, staff2, 2)).id;
  await pushAs(staff2, ids.gatxSued, DEADLINE_OUT, '2030-01-12');
  await pushAs(staff2, ids.gatxSued, `${IN}.Halterkurzkennzeichen`, 'D-GATX');
  ids.vtg = (await createWagonOrder(server, staff, 2)).id;
  await pushAs(staff, ids.vtg, DEADLINE_OUT, '2030-01-11');
  await pushAs(staff, ids.vtg, `${OUT}.Halterkurzkennzeichen`, 'D-VTG');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the deadline list of a workshop', () => {
  it('holds the own orders due within the window and the overdue ones, most urgent first', async () => {
    const res = await get(staff, 'within=30');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.today).toBe(TODAY);
    expect(res.body.deadlines.map(({ orderId, daysLeft, side }) => ({ orderId, daysLeft, side }))).toEqual([
      { orderId: ids.nordOverdue, daysLeft: -3, side: 'in' },
      { orderId: ids.nordWheelset, daysLeft: 0, side: 'out' },
      { orderId: ids.vtg, daysLeft: 1, side: 'out' },
      { orderId: ids.nordSoon, daysLeft: 20, side: 'out' },
    ]);
    expect(res.body.deadlines[1]).toMatchObject({
      orderType: 'WHEELSET',
      vehicleNumber: wheelsetNumbers(1)[0],
      field: 'RevisionDeadline.NextDueDate',
      labelKey: 'catalogue.field.wheelsetNextDueDate',
      due: TODAY,
    });
  });

  it('adds a deadline due in 80 days only with the 90-day window, and leaves overdue ones out when asked', async () => {
    expect(ordersIn((await get(staff, 'within=60')).body)).not.toContain(ids.nordLater);
    expect(ordersIn((await get(staff, 'within=90')).body)).toContain(ids.nordLater);
    expect(ordersIn((await get(staff, 'within=90&overdue=false')).body)).not.toContain(ids.nordOverdue);
    expect((await get(staff, 'overdue=true')).body.deadlines.map((deadline) => deadline.orderId)).toEqual([
      ids.nordOverdue,
    ]);
  });

  it('never holds another workshop’s deadlines, for every reading role', async () => {
    const nord = [ids.nordSoon, ids.nordLater, ids.nordOverdue, ids.nordWheelset, ids.vtg].sort();
    expect(ordersIn((await get(staff, 'within=90')).body)).toEqual(nord);
    expect(ordersIn((await get(qa, 'within=90')).body)).toEqual(nord);
    expect(ordersIn((await get(staff2, 'within=90')).body)).toEqual([ids.sued, ids.gatxSued].sort());
  });

  it('follows the current values: a revert brings the older date back', async () => {
    const order = (await createWagonOrder(server, staff, 2)).id;
    await pushAs(staff, order, DEADLINE_OUT, '2030-01-20');
    const counter = await pushAs(staff, order, DEADLINE_OUT, '2031-01-20');
    expect(ordersIn((await get(staff, 'within=30')).body)).not.toContain(order);
    const reverted = await server.request('PATCH', `/api/v1/activity/${order}/${counter}/reverted`, { token: staff });
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
    const after = (await get(staff, 'within=30')).body.deadlines.filter((deadline) => deadline.orderId === order);
    expect(after).toMatchObject([{ due: '2030-01-20', daysLeft: 10 }]);
  });

  it('names a tank test by its kind and drops it when its entry is removed', async () => {
    const order = (await createWagonOrder(server, staff, 2)).id;
    const entry = `${OUT}.Tank.TestCollection.TankTest[0]`;
    await pushAs(staff, order, `${entry}.Tankpruefungsart`, 'P');
    await pushAs(staff, order, `${entry}.NaechstePruefung`, '2030-01');
    const tank = () =>
      get(staff, 'within=30').then((res) => res.body.deadlines.filter((deadline) => deadline.orderId === order));
    expect(await tank()).toMatchObject([
      { entry: 'P', due: '2030-01-31', daysLeft: 21, labelKey: 'catalogue.field.tankTestNextDue' },
    ]);
    const removed = await server.request('POST', '/api/v1/activity', {
      token: staff,
      body: { ...push(order, entry, ''), t: 'XML_DELETE', oV: '' },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await tank()).toEqual([]);
  });

  it('refuses a window other than 30, 60 or 90 and a date that does not exist', async () => {
    for (const query of ['within=45', 'overdue=maybe']) {
      const res = await get(staff, query);
      expect(res.status).toBe(400);
    }
    const leap = await server.request('GET', '/api/v1/deadlines?today=2031-02-29', { token: staff });
    expect(leap.status).toBe(400);
  });
});

describe('the deadline list of a holder', () => {
  it('holds only the keeper’s wagons, in every workshop', async () => {
    expect(ordersIn((await get(holderX, 'within=90')).body)).toEqual([ids.nordSoon, ids.gatxSued].sort());
    expect(ordersIn((await get(holderY, 'within=90')).body)).toEqual([ids.vtg]);
  });
});
