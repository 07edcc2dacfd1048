import { orderSchema, serverActivitySchema } from '@vers/domain';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestServer, startTestServer } from '../test/server.ts';
import { IN, OUT, WAGON_NUMBER, createWagonOrder, push, signOff, wheelsetNumbers } from '../test/orders.ts';

let server: TestServer;
let staff: string;
let staff2: string;
let werkadmin: string;
let wagonqa: string;
let wheelsetqa: string;

beforeAll(async () => {
  server = await startTestServer();
  [staff, staff2, werkadmin, wagonqa, wheelsetqa] = await server.signInAll([
    'staff',
    'staff2',
    'werkadmin',
    'wagonqa',
    'wheelsetqa',
  ]);
});
afterAll(async () => {
  await server?.close();
});

const activitiesOf = async (orderId: string, token = staff) =>
  z.array(serverActivitySchema).parse((await server.request('GET', `/api/v1/activity/${orderId}`, { token })).body);

const wagonBody = (overrides: Record<string, unknown> = {}, wheelsets = 4) => ({
  type: 'WAGON',
  contractor: 'DBC',
  maintenanceNumber: WAGON_NUMBER,
  wagon: { number: WAGON_NUMBER, wheelsetsOutgoing: wheelsetNumbers(wheelsets).map((number) => ({ number })) },
  ...overrides,
});

describe('creating orders', () => {
  it('creates a wagon order whose creation data is the start of its activity log', async () => {
    const order = orderSchema.parse(await createWagonOrder(server, staff));
    expect(order).toMatchObject({ type: 'WAGON', status: 'CREATED', maintenanceNumber: '218124712173' });
    expect(order.number).toMatch(/^\d{4}-\d{6}$/);
    const log = await activitiesOf(order.id);
    expect(log.map((a) => a.co)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    const valueAt = (key: string) => JSON.parse(log.find((a) => a.k === key)?.oV ?? 'null') as { value: string };
    expect(valueAt(`${IN}.Waggonnummer`)).toMatchObject({ value: '218124712173', CaptureDate: expect.any(String) });
    expect(log.filter((a) => a.k.endsWith('.Wheelsetnumber'))).toHaveLength(4);
    expect(valueAt(`${OUT}.Understructure.WheelsetCollection.Wheelset[3].Position`).value).toBe('4');
  });

  it('hands out dense order numbers per workshop', async () => {
    const a = await createWagonOrder(server, staff);
    const b = await createWagonOrder(server, staff);
    expect(Number(b.number.slice(5))).toBe(Number(a.number.slice(5)) + 1);
  });

  it('answers a repeated creation with the same id with the first order, adding nothing', async () => {
    const id = randomUUID();
    const first = await server.request<{ number: string }>('POST', '/api/v1/orders', {
      token: staff,
      body: wagonBody({ id }),
    });
    const again = await server.request<{ number: string }>('POST', '/api/v1/orders', {
      token: staff,
      body: wagonBody({ id }),
    });
    expect(first.status).toBe(200);
    expect(again.body.number).toBe(first.body.number);
    expect(await activitiesOf(id)).toHaveLength(10);
  });

  it('creates a wheelset order', async () => {
    const [number] = wheelsetNumbers(1);
    const res = await server.request('POST', '/api/v1/orders', {
      token: staff,
      body: { type: 'WHEELSET', maintenanceNumber: number, wheelset: { number } },
    });
    expect(res.status).toBe(200);
    expect(orderSchema.parse(res.body)).toMatchObject({ type: 'WHEELSET', wheelsetNumber: number });
  });

  it('refuses a wrong check digit, letters, 1 or 9 wheelsets, one wheelset twice, an unknown type; nothing is saved', async () => {
    const before = (await server.request<unknown[]>('GET', '/api/v1/orders', { token: staff })).body.length;
    const wrong = await server.request<{ code: string; fields: string[] }>('POST', '/api/v1/orders', {
      token: staff,
      body: wagonBody({ maintenanceNumber: '21 81 2471 217-4' }),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('CHECK_NUMBER');
    expect(wrong.body.fields).toEqual(['body.maintenanceNumber']);
    const letters = await server.request('POST', '/api/v1/orders', {
      token: staff,
      body: wagonBody({ maintenanceNumber: '21 81 2471 21A-3' }),
    });
    expect(letters).toMatchObject({ status: 400, body: { code: 'CHECK_NUMBER' } });
    for (const count of [1, 9]) {
      const res = await server.request<{ fields: string[] }>('POST', '/api/v1/orders', {
        token: staff,
        body: wagonBody({}, count),
      });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual(['body.wagon.wheelsetsOutgoing']);
    }
    const badWheelset = wagonBody();
    (badWheelset.wagon.wheelsetsOutgoing[1] as { number: string }).number = '123456789012';
    expect(await server.request('POST', '/api/v1/orders', { token: staff, body: badWheelset })).toMatchObject({
      status: 400,
      body: { code: 'CHECK_NUMBER' },
    });
    // One wheelset twice, the second time in its printed form: the later row is named.
    const twice = wagonBody();
    const first = (twice.wagon.wheelsetsOutgoing[0] as { number: string }).number.replace(/\D/g, '');
    (twice.wagon.wheelsetsOutgoing[2] as { number: string }).number =
      `${first.slice(0, 2)} ${first.slice(2, 4)} ${first.slice(4, 8)} ${first.slice(8, 11)}-${first.slice(11)}`;
    expect(await server.request('POST', '/api/v1/orders', { token: staff, body: twice })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', fields: ['body.wagon.wheelsetsOutgoing.2.number'] },
    });
    expect(
      (await server.request('POST', '/api/v1/orders', { token: staff, body: wagonBody({ type: 'TRUCK' }) })).status,
    ).toBe(400);
    expect(
      (await server.request('POST', '/api/v1/orders', { token: staff, body: wagonBody({ wagon: undefined }) })).status,
    ).toBe(400);
    expect((await server.request<unknown[]>('GET', '/api/v1/orders', { token: staff })).body).toHaveLength(before);
  });

  it('is made by the four workshop order roles only; the quality manager lists them too', async () => {
    for (const user of ['holder', 'versadmin', 'qa']) {
      const token = await server.signIn(user);
      expect(await server.request('POST', '/api/v1/orders', { token, body: wagonBody() })).toMatchObject({
        status: 403,
        body: { code: 'ORDER_WRITE_FORBIDDEN' },
      });
      expect((await server.request('GET', '/api/v1/orders', { token })).status).toBe(user === 'qa' ? 200 : 403);
    }
    expect((await server.request('POST', '/api/v1/orders', { token: werkadmin, body: wagonBody() })).status).toBe(200);
  });
});

describe('listing, reading and deleting', () => {
  it('lists the own workshop only, searchable by wagon number in any spelling', async () => {
    const order = await createWagonOrder(server, staff);
    const found = await server.request<{ id: string }[]>(
      'GET',
      `/api/v1/orders?orderNumber=${encodeURIComponent('2471 217')}`,
      { token: staff },
    );
    expect(found.body.map((o) => o.id)).toContain(order.id);
    const none = await server.request<unknown[]>('GET', '/api/v1/orders?orderNumber=999999', { token: staff });
    expect(none.body).toEqual([]);
    const south = await server.request<{ id: string }[]>('GET', '/api/v1/orders', { token: staff2 });
    expect(south.body.map((o) => o.id)).not.toContain(order.id);
  });

  it("keeps another workshop's orders and activities out of reach (404) and unchanged", async () => {
    const order = await createWagonOrder(server, staff);
    for (const path of [
      `/api/v1/orders/${order.id}`,
      `/api/v1/activity/${order.id}`,
      `/api/v1/activity/${order.id}/last`,
      `/api/v1/activity/${order.id}/1`,
    ]) {
      expect((await server.request('GET', path, { token: staff2 })).status).toBe(404);
    }
    expect(
      (
        await server.request('POST', '/api/v1/activity', {
          token: staff2,
          body: push(order.id, `${IN}.Halterkurzkennzeichen`, 'X'),
        })
      ).status,
    ).toBe(404);
    expect(
      (await server.request('POST', `/api/v1/orders/${order.id}/status`, { token: staff2, body: { status: 'IN_QA' } }))
        .status,
    ).toBe(404);
    expect((await server.request('PATCH', `/api/v1/activity/${order.id}/1/reverted`, { token: staff2 })).status).toBe(
      404,
    );
    expect((await server.request('DELETE', `/api/v1/orders/${order.id}`, { token: staff2 })).status).toBe(404);
    expect(await activitiesOf(order.id)).toHaveLength(10);
  });

  it('deletes an order with its activities', async () => {
    const order = await createWagonOrder(server, staff);
    expect((await server.request('DELETE', `/api/v1/orders/${order.id}`, { token: staff })).status).toBe(204);
    expect((await server.request('GET', `/api/v1/orders/${order.id}`, { token: staff })).status).toBe(404);
    expect((await server.request('GET', `/api/v1/activity/${order.id}`, { token: staff })).status).toBe(404);
  });
});

describe('status changes', () => {
  it('lets a worker choose only IN_QA', async () => {
    const order = await createWagonOrder(server, staff);
    for (const status of ['IN_WORK', 'DONE', 'DONE_ARCHIVED']) {
      const res = await server.request('POST', `/api/v1/orders/${order.id}/status`, { token: staff, body: { status } });
      expect(res.status).toBe(403);
    }
    const ok = await server.request<{ co: number }>('POST', `/api/v1/orders/${order.id}/status`, {
      token: staff,
      body: { status: 'IN_QA' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.co).toBe(11);
    const read = await server.request('GET', `/api/v1/orders/${order.id}`, { token: staff });
    expect(read.body).toMatchObject({ status: 'IN_QA' });
    const log = await activitiesOf(order.id);
    expect(log.at(-1)).toMatchObject({ t: 'ORDER_STATUS_MODIFICATION', oV: '"IN_QA"' });
  });

  it('answers a resent status change (same id) with its first result, though the rules would refuse it now', async () => {
    const order = await createWagonOrder(server, staff);
    const body = { status: 'IN_QA', id: randomUUID() };
    const first = await server.request('POST', `/api/v1/orders/${order.id}/status`, { token: staff, body });
    const again = await server.request('POST', `/api/v1/orders/${order.id}/status`, { token: staff, body });
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect((await activitiesOf(order.id)).filter((a) => a.t === 'ORDER_STATUS_MODIFICATION')).toHaveLength(1);
  });

  it('offers DONE_ARCHIVED to wagon QA on a wagon order, not to wheelset QA', async () => {
    const order = await createWagonOrder(server, staff);
    expect(
      (
        await server.request('POST', `/api/v1/orders/${order.id}/status`, {
          token: wheelsetqa,
          body: { status: 'DONE_ARCHIVED' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await server.request('POST', `/api/v1/orders/${order.id}/status`, {
          token: wagonqa,
          body: { status: 'DONE_ARCHIVED' },
        })
      ).body,
    ).toMatchObject({ code: 'SIGN_OFF_REQUIRED' });
    expect((await signOff(server, wheelsetqa, order.id, { status: 'DONE_ARCHIVED' })).status).toBe(403);
    expect((await signOff(server, wagonqa, order.id, { status: 'DONE_ARCHIVED' })).status).toBe(200);
  });

  it('refuses edits to a done order, and keeps its data', async () => {
    const order = await createWagonOrder(server, staff);
    expect((await signOff(server, werkadmin, order.id)).status).toBe(200);
    const res = await server.request('POST', '/api/v1/activity', {
      token: staff,
      body: push(order.id, `${OUT}.Halterkurzkennzeichen`, 'D-DB'),
    });
    expect(res).toMatchObject({ status: 409, body: { code: 'ORDER_READ_ONLY' } });
    expect((await activitiesOf(order.id)).map((a) => a.k)).not.toContain(`${OUT}.Halterkurzkennzeichen`);
    // Reopening by an admin makes it editable again.
    expect(
      (
        await server.request('POST', `/api/v1/orders/${order.id}/status`, {
          token: werkadmin,
          body: { status: 'IN_WORK' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.request('POST', '/api/v1/activity', {
          token: staff,
          body: push(order.id, `${OUT}.Halterkurzkennzeichen`, 'D-DB'),
        })
      ).status,
    ).toBe(200);
  });
});
