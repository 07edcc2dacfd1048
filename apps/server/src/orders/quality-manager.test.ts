import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Asset, ErrorBody, Order, OrderPage, ServerActivity } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest } from '../security/digest.ts';
import { IN, OUT, WAGON_NUMBER, createWagonOrder, push, signOff, wheelsetNumbers } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

/**
 * The quality manager (ROLE_WORKSHOP_QA, demo user `qa`) over HTTP (issue 21, part 3): reads the workshop's orders,
 * their changes, pictures and documents, makes documents and sets the statuses the status rule gives it; every call
 * that changes an order answers 403 ORDER_WRITE_FORBIDDEN and changes nothing.
 */

let server: TestServer;
let staff: string;
let qa: string;

/** A 1x1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const WAGON_TEMPLATE = readFileSync(new URL('../../../../docs/xml/example-wagon.xml', import.meta.url));
const picture = (orderId: string, id = randomUUID()) => ({
  id,
  type: 'PICTURE',
  filename: 'puffer.png',
  base64: PNG_BASE64,
  size: Buffer.from(PNG_BASE64, 'base64').length,
  orderId,
});

beforeAll(async () => {
  server = await startTestServer();
  [staff, qa] = await server.signInAll(['staff', 'qa']);
});
afterAll(async () => {
  await server?.close();
});

async function expectOk<T>(answer: Promise<{ status: number; body: T }>): Promise<T> {
  const { status, body } = await answer;
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

/** Staff's wagon order with a value, a picture and a status of the quality check: what the quality manager meets. */
async function orderInQa() {
  const order = await createWagonOrder(server, staff, 2);
  const change = push(order.id, `${OUT}.Eigengewicht`, '23950');
  await expectOk(server.request('POST', '/api/v1/activity', { token: staff, body: change }));
  const photo = picture(order.id);
  await expectOk(server.request('POST', '/api/v1/assets', { token: staff, body: photo }));
  await expectOk(
    server.request('POST', `/api/v1/orders/${order.id}/status`, { token: staff, body: { status: 'IN_QA' } }),
  );
  return { order, change, pictureId: photo.id };
}

async function waitForDocument(orderId: string, id: string, token: string): Promise<Asset> {
  for (let tries = 0; tries < 1800; tries++) {
    const list = await expectOk(server.request<Asset[]>('GET', `/api/v1/assets/order/${orderId}`, { token }));
    const asset = list.find((candidate) => candidate.id === id);
    if (asset && asset.status !== 'IN_GENERATION') return asset;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`document ${id} not made within 3 minutes`);
}

async function download(id: string, token: string) {
  const response = await fetch(`${server.url}/api/v1/assets/download/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('the quality manager', () => {
  it('reads the order list, the queue of orders in quality check, an order and its changes', async () => {
    const { order, change } = await orderInQa();
    const other = await createWagonOrder(server, staff, 2);

    const queue = await expectOk(server.request<OrderPage>('GET', '/api/v1/orders/page?status=IN_QA', { token: qa }));
    expect(queue.orders.map((o) => o.id)).toContain(order.id);
    expect(queue.orders.map((o) => o.id)).not.toContain(other.id);
    expect(queue.orders.every((o) => o.status === 'IN_QA')).toBe(true);
    const all = await expectOk(server.request<OrderPage>('GET', '/api/v1/orders/page?limit=100', { token: qa }));
    expect(all.orders.map((o) => o.id)).toEqual(expect.arrayContaining([order.id, other.id]));
    const changes = await expectOk(server.request<{ orders: Order[] }>('GET', '/api/v1/orders/changes', { token: qa }));
    expect(changes.orders.map((o) => o.id)).toContain(order.id);

    expect((await expectOk(server.request<Order>('GET', `/api/v1/orders/${order.id}`, { token: qa }))).status).toBe(
      'IN_QA',
    );
    const log = await expectOk(server.request<ServerActivity[]>('GET', `/api/v1/activity/${order.id}`, { token: qa }));
    const pushed = log.find((row) => row.k === change.k);
    expect(pushed?.oV).toBe(change.oV);
    const last = await expectOk(
      server.request<{ last: number }>('GET', `/api/v1/activity/${order.id}/last`, { token: qa }),
    );
    expect(last.last).toBe(Math.max(...log.map((row) => row.co)));
    await expectOk(server.request('GET', `/api/v1/activity/${order.id}/${pushed?.co}`, { token: qa }));
    await expectOk(server.request('GET', `/api/v1/activity/${order.id}/conflicts`, { token: qa }));
  });

  it('sees the pictures, downloads documents and makes them', async () => {
    const { order, pictureId } = await orderInQa();
    const pictures = await expectOk(server.request<Asset[]>('GET', `/api/v1/assets/order/${order.id}`, { token: qa }));
    expect(pictures.map((asset) => asset.id)).toContain(pictureId);
    const shown = await download(pictureId, qa);
    expect(shown.status).toBe(200);
    expect(shown.bytes.toString('base64')).toBe(PNG_BASE64);
    expect(
      (
        await fetch(`${server.url}/api/v1/assets/thumbnail/${pictureId}`, {
          headers: { authorization: `Bearer ${qa}` },
        })
      ).status,
    ).toBe(200);

    // A document staff made, and one the quality manager makes.
    for (const token of [staff, qa]) {
      const [made] = await expectOk(
        server.request<Asset[]>('POST', `/api/v1/export/${order.id}/de`, { token, body: { types: ['PREVIEW'] } }),
      );
      const document = await waitForDocument(order.id, made?.id ?? '', qa);
      expect(document.status).toBe('AVAILABLE');
      const file = await download(document.id, qa);
      expect(file.status).toBe(200);
      expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('sets IN_WORK, IN_QA and DONE, but neither DONE_ARCHIVED nor a creation step', async () => {
    const { order } = await orderInQa();
    const setStatus = (status: string) =>
      server.request<ErrorBody>('POST', `/api/v1/orders/${order.id}/status`, { token: qa, body: { status } });
    const statusNow = async () =>
      (await expectOk(server.request<Order>('GET', `/api/v1/orders/${order.id}`, { token: qa }))).status;

    for (const status of ['IN_WORK', 'IN_QA']) {
      expect((await setStatus(status)).status, status).toBe(200);
      expect(await statusNow()).toBe(status);
    }
    // DONE is set by a sign-off (issue 21), which the quality manager may give.
    expect(await setStatus('DONE')).toMatchObject({ status: 409, body: { code: 'SIGN_OFF_REQUIRED' } });
    const signed = await signOff(server, qa, order.id);
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ role: 'ROLE_WORKSHOP_QA' });
    expect(await statusNow()).toBe('DONE');
    for (const status of ['DONE_ARCHIVED', 'CREATED', 'IN_CREATION']) {
      const refused = await setStatus(status);
      expect([refused.status, refused.body.code], status).toEqual([403, 'FORBIDDEN']);
      expect(await statusNow()).toBe('DONE');
    }
    // The wagon QA archives it, as before.
    const wagonQa = await server.signIn('wagonqa');
    expect((await signOff(server, qa, order.id, { status: 'DONE_ARCHIVED' })).status).toBe(403);
    const archived = await signOff(server, wagonQa, order.id, { status: 'DONE_ARCHIVED' });
    expect(archived.status).toBe(200);
  });

  it('is refused every change of an order with 403 ORDER_WRITE_FORBIDDEN, and nothing changes', async () => {
    const { order, change, pictureId } = await orderInQa();
    const log = await expectOk(server.request<ServerActivity[]>('GET', `/api/v1/activity/${order.id}`, { token: qa }));
    const counter = log.find((row) => row.k === change.k)?.co;
    const upload = new FormData();
    const { base64, ...fields } = picture(order.id);
    for (const [key, value] of Object.entries(fields)) upload.append(key, String(value));
    upload.append('file', new Blob([Buffer.from(base64, 'base64')], { type: 'image/png' }), fields.filename);

    const writes: [string, string, Parameters<TestServer['request']>[2]][] = [
      [
        'POST',
        '/api/v1/orders',
        {
          body: {
            id: randomUUID(),
            type: 'WAGON',
            maintenanceNumber: WAGON_NUMBER,
            wagon: { number: WAGON_NUMBER, wheelsetsOutgoing: wheelsetNumbers(2).map((number) => ({ number })) },
          },
        },
      ],
      ['DELETE', `/api/v1/orders/${order.id}`, {}],
      ['POST', '/api/v1/activity', { body: push(order.id, `${IN}.Eigengewicht`, '1') }],
      ['POST', '/api/v1/activity/batch', { body: { activities: [push(order.id, `${IN}.Eigengewicht`, '2')] } }],
      ['PATCH', `/api/v1/activity/${order.id}/${counter}/reverted`, {}],
      ['POST', '/api/v1/assets', { body: picture(order.id) }],
      ['POST', '/api/v1/assets/upload', { form: upload }],
      [
        'POST',
        '/api/v1/assets',
        {
          body: {
            id: randomUUID(),
            type: 'IMPORT',
            filename: 'wagon.xml',
            base64: WAGON_TEMPLATE.toString('base64'),
            size: WAGON_TEMPLATE.length,
          },
        },
      ],
      ['DELETE', `/api/v1/assets/${pictureId}`, {}],
    ];

    const before = await databaseDigest(server.database);
    for (const [method, path, options] of writes) {
      const answer = await server.request<ErrorBody>(method, path, { ...options, token: qa });
      expect([answer.status, answer.body.code], `${method} ${path}`).toEqual([403, 'ORDER_WRITE_FORBIDDEN']);
    }
    expect(await databaseDigest(server.database)).toEqual(before);

    // The same calls by staff are not refused: the refusal is the role's, not the order's.
    const staffPush = await server.request('POST', '/api/v1/activity', {
      token: staff,
      body: push(order.id, `${IN}.Eigengewicht`, '3'),
    });
    expect(staffPush.status).toBe(200);
  });
});
