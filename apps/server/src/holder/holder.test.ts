import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  type HolderDocument,
  type HolderOrderDetail,
  type HolderOrderPage,
  ROLES,
  type SignOffCheck,
  attributeValue,
} from '@vers/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keeperVkmBackfill, orders } from '../db/schema.ts';
import { backfillKeeperVkm } from '../orders/keeper-vkm.ts';
import { generate, waitForDocuments, wagonReleaseEntries } from '../test/documents.ts';
import { IN, OUT, createWagonOrder, push, signOff, wheelsetNumbers } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

/*
 * The holder portal's tenancy (issue 22): a holder of keeper X reaches, by every holder call, the wagon orders whose
 * keeper marking names X's VKM, in any workshop, and never keeper Y's wagon, a wheelset order, an order without a
 * marking, or another file; the workshop's change of a marking moves the order between keepers at once, and its undo
 * moves it back.
 */

let server: TestServer;
let staff: string;
let staff2: string;
let werkadmin: string;
/** The demo holder, of the demo keeper GATX Rail Europe (VKM GATX). */
let holderX: string;
/** A holder of a second keeper (VKM VTG), made here. */
let holderY: string;

const MARKING_OUT = `${OUT}.Halterkurzkennzeichen`;
const MARKING_IN = `${IN}.Halterkurzkennzeichen`;

const get = <T>(token: string, path: string) => server.request<T>('GET', `/api/v1${path}`, { token });
const list = (token: string, query = '') => get<HolderOrderPage>(token, `/holder/orders?limit=100${query}`);
const detail = (token: string, id: string) => get<HolderOrderDetail>(token, `/holder/orders/${id}`);
const askDocument = (token: string, id: string, type: string, language = 'de') =>
  server.request<HolderDocument>('POST', `/api/v1/holder/orders/${id}/documents`, {
    token,
    body: { type, language },
  });
const downloadAs = (token: string, id: string) => get<unknown>(token, `/holder/documents/${id}`);
const pushAs = async (token: string, orderId: string, key: string, value: string) => {
  const res = await server.request<{ co: number }>('POST', '/api/v1/activity', {
    token,
    body: push(orderId, key, value),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.co;
};
const idsOf = (page: HolderOrderPage) => page.orders.map((order) => order.id).sort();

/** The orders of this file: a keeper's wagons in both workshops, another keeper's, and orders of no keeper. */
const orderIds = {} as Record<
  'gatxNord' | 'gatxSued' | 'vtgNord' | 'noMarking' | 'badMarking' | 'wheelset' | 'moved',
  string
>;

beforeAll(async () => {
  server = await startTestServer();
  let admin: string;
  [admin, staff, staff2, werkadmin, holderX] = await server.signInAll([
    'admin',
    'staff',
    'staff2',
    'werkadmin',
    'holder',
  ]);
  const keeper = await server.request<{ id: number }>('POST', '/api/v1/keepers', {
    token: admin,
    body: { name: 'VTG Rail Europe', markings: ['VTG'] },
  });
  expect(keeper.status).toBe(201);
  const created = await server.request<{ user: { username: string }; password: string }>('POST', '/api/v1/users', {
    token: admin,
    body: {
      username: 'holder-vtg',
      firstName: 'Vera',
      lastName: 'Halter',
      roles: [{ name: ROLES.HOLDER }],
      keeperId: keeper.body.id,
    },
  });
  expect(created.status).toBe(201);
  holderY = await server.signIn('holder-vtg', created.body.password);

  orderIds.gatxNord = (await createWagonOrder(server, staff)).id;
  await pushAs(staff, orderIds.gatxNord, MARKING_OUT, 'D-GATX');
  // Süd's wagon arrived marked: only the incoming side holds the marking (` d - gatx` names GATX as well).
  orderIds.gatxSued = (await createWagonOrder(server, staff2)).id;
  await pushAs(staff2, orderIds.gatxSued, MARKING_IN, ' d - gatx');
  orderIds.vtgNord = (await createWagonOrder(server, staff)).id;
  await pushAs(staff, orderIds.vtgNord, MARKING_OUT, 'D-VTG');
  orderIds.noMarking = (await createWagonOrder(server, staff)).id;
  orderIds.badMarking = (await createWagonOrder(server, staff)).id;
  await pushAs(staff, orderIds.badMarking, MARKING_OUT, 'D-G4TX');
  const wheelset = await server.request<{ id: string }>('POST', '/api/v1/orders', {
    token: staff,
    body: { id: randomUUID(), type: 'WHEELSET', maintenanceNumber: wheelsetNumbers(1)[0]! },
  });
  orderIds.wheelset = wheelset.body.id;
  orderIds.moved = (await createWagonOrder(server, staff)).id;
  await pushAs(staff, orderIds.moved, MARKING_OUT, 'D-GATX');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const FOREIGN_TO_X = () => [orderIds.vtgNord, orderIds.noMarking, orderIds.badMarking, orderIds.wheelset, randomUUID()];

describe('the holder list', () => {
  it("holds the keeper's wagon orders of every workshop, and no other order", async () => {
    const x = await list(holderX);
    expect(x.status).toBe(200);
    expect(idsOf(x.body)).toEqual([orderIds.gatxNord, orderIds.gatxSued, orderIds.moved].sort());
    expect(x.body.total).toBe(3);
    const sued = x.body.orders.find((order) => order.id === orderIds.gatxSued)!;
    expect(sued).toMatchObject({
      keeperMarking: 'd - gatx',
      workshop: { name: 'VERS Demo-Werkstatt Süd', countryCode: 'AT' },
      releasedAt: null,
    });
    const y = await list(holderY);
    expect(idsOf(y.body)).toEqual([orderIds.vtgNord]);
    expect(y.body.orders[0]).toMatchObject({ keeperMarking: 'D-VTG', workshop: { name: 'VERS Demo-Werkstatt Nord' } });
  });

  it('searches within the keeper’s orders only, pages newest first', async () => {
    const vtgNumber = (await detail(holderY, orderIds.vtgNord)).body.order.number;
    expect((await list(holderX, `&search=${encodeURIComponent(vtgNumber)}`)).body).toEqual({ total: 0, orders: [] });
    expect(idsOf((await list(holderY, `&search=${encodeURIComponent(vtgNumber)}`)).body)).toEqual([orderIds.vtgNord]);
    // The demo wagon number of every order here: the search finds the keeper's three, not the others.
    const byWagon = await list(holderX, '&search=2471217');
    expect(byWagon.body.total).toBe(3);
    const all = (await list(holderX)).body.orders;
    const created = all.map((order) => order.created);
    expect([...created].sort().reverse()).toEqual(created);
    const page = await get<HolderOrderPage>(holderX, '/holder/orders?limit=2&offset=0');
    const rest = await get<HolderOrderPage>(holderX, '/holder/orders?limit=2&offset=2');
    expect(page.body.total).toBe(3);
    expect([...page.body.orders, ...rest.body.orders].map((order) => order.id)).toEqual(all.map((order) => order.id));
  });

  it('refuses bad paging with 400', async () => {
    expect((await get(holderX, '/holder/orders?limit=0')).status).toBe(400);
    expect((await get(holderX, '/holder/orders?offset=-1')).body).toMatchObject({ code: 'VALIDATION' });
  });
});

describe('one order', () => {
  it('answers 404 alike for another keeper’s wagon, a wheelset order, an order without a readable marking, an unknown id', async () => {
    for (const id of FOREIGN_TO_X()) {
      const res = await detail(holderX, id);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'Order not found' });
    }
    expect((await detail(holderY, orderIds.gatxNord)).status).toBe(404);
  });

  it('shows the outgoing values only, without the names of who changed them, and the status history', async () => {
    const orderId = orderIds.gatxNord;
    const withAuthor = {
      ...push(orderId, `${OUT}.Eigengewicht`, '23950'),
      oV: JSON.stringify(attributeValue('23950', new Date(), 'Schlosser')),
    };
    expect((await server.request('POST', '/api/v1/activity', { token: staff, body: withAuthor })).status).toBe(200);
    await pushAs(staff, orderId, `${IN}.Eigengewicht`, '24100');
    expect(
      (
        await server.request('POST', `/api/v1/orders/${orderId}/status`, {
          token: werkadmin,
          body: { status: 'IN_WORK' },
        })
      ).status,
    ).toBe(200);
    const res = await detail(holderX, orderId);
    expect(res.status).toBe(200);
    const keys = Object.keys(res.body.values);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => key.startsWith(`${OUT}.`))).toBe(true);
    expect(res.body.values[`${OUT}.Eigengewicht`]).toEqual({ value: '23950', CaptureDate: expect.any(String) });
    expect(res.body.values[MARKING_OUT]).toMatchObject({ value: 'D-GATX' });
    const text = JSON.stringify(res.body);
    for (const name of ['Schlosser', 'Stefan', 'LastModifier', '24100']) expect(text).not.toContain(name);
    expect(res.body.statusHistory.map((entry) => entry.status)).toEqual(['IN_WORK']);
    expect(res.body.order).toMatchObject({ id: orderId, status: 'IN_WORK', keeperMarking: 'D-GATX' });
  });

  it('leaves a reverted value out', async () => {
    const orderId = orderIds.gatxNord;
    const counter = await pushAs(staff, orderId, `${OUT}.Eigengewicht`, '99999');
    expect((await detail(holderX, orderId)).body.values[`${OUT}.Eigengewicht`]).toMatchObject({ value: '99999' });
    const revert = await server.request('PATCH', `/api/v1/activity/${orderId}/${counter}/reverted`, { token: staff });
    expect(revert.status).toBe(200);
    expect((await detail(holderX, orderId)).body.values[`${OUT}.Eigengewicht`]).toMatchObject({ value: '23950' });
  });
});

describe('documents', () => {
  it('makes a keeper XML of the keeper’s order, lists it and downloads it; never another keeper’s or another file', async () => {
    const orderId = orderIds.gatxNord;
    for (const id of FOREIGN_TO_X()) {
      const refused = await askDocument(holderX, id, 'XML_KEEPER');
      expect(refused.status, id).toBe(404);
      expect(refused.body).toMatchObject({ code: 'NOT_FOUND' });
    }
    const asked = await askDocument(holderX, orderId, 'XML_KEEPER', 'en');
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ type: 'XML_KEEPER', status: 'IN_GENERATION' });
    // The workshop's own document of the same order, and a picture: not the holder's files.
    const workshopXml = await generate(server, staff, orderId, ['XML_WORKSHOP']);
    const [workshopDoc] = workshopXml.body;
    await waitForDocuments(server, staff, orderId, [asked.body.id, workshopDoc!.id]);
    const seen = await detail(holderX, orderId);
    expect(seen.body.documents.map((doc) => [doc.id, doc.type, doc.status])).toEqual([
      [asked.body.id, 'XML_KEEPER', 'AVAILABLE'],
    ]);
    const file = await downloadAs(holderX, asked.body.id);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('application/xml');
    expect(String(file.body)).toContain('D-GATX');
    expect((await downloadAs(holderY, asked.body.id)).status).toBe(404);
    expect((await downloadAs(holderX, workshopDoc!.id)).status).toBe(404);
    expect((await downloadAs(holderX, randomUUID())).status).toBe(404);
    // The workshop's trail names the holder's request.
    const audit = await server.request<{ action: string; actor: string; target: string }[]>('GET', '/api/v1/audit', {
      token: await server.signIn('werkadmin'),
    });
    expect(audit.body).toContainEqual(
      expect.objectContaining({ action: 'holder.documentRequested', actor: 'holder', target: expect.any(String) }),
    );
  });

  it('asks for a release to service only with a current sign-off, and shows sign-offs and release as they exist', async () => {
    const orderId = (await createWagonOrder(server, staff2)).id;
    await pushAs(staff2, orderId, MARKING_OUT, 'D-GATX');
    const unsigned = await askDocument(holderX, orderId, 'RELEASE_TO_SERVICE');
    expect(unsigned).toMatchObject({ status: 409, body: { code: 'RELEASE_NOT_SIGNED' } });
    const batch = await server.request('POST', '/api/v1/activity/batch', {
      token: staff2,
      body: { activities: wagonReleaseEntries(orderId) },
    });
    expect(batch.status).toBe(200);
    const qa2 = await server.request<{ user: unknown; password: string }>('POST', '/api/v1/users', {
      token: await server.signIn('werkadmin2'),
      body: { username: 'wagonqa-sued', firstName: 'W', lastName: 'Q', roles: [{ name: ROLES.WORKSHOP_WAGON_QA }] },
    });
    const qaToken = await server.signIn('wagonqa-sued', qa2.body.password);
    const signed = await signOff(server, qaToken, orderId, {
      meaning: 'RELEASED_TO_SERVICE',
      status: 'DONE',
      password: qa2.body.password,
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    // At once: the sign-off, the release time in the list, and the release to service on request.
    const seen = await detail(holderX, orderId);
    expect(seen.body.signOffs.map((s) => [s.code, s.meaning])).toEqual([[signed.body.code, 'RELEASED_TO_SERVICE']]);
    expect(seen.body.order.releasedAt).not.toBeNull();
    expect(seen.body.statusHistory.at(-1)?.status).toBe('DONE');
    const listed = (await list(holderX)).body.orders.find((order) => order.id === orderId);
    expect(listed?.releasedAt).toBe(seen.body.order.releasedAt);
    const release = await askDocument(holderX, orderId, 'RELEASE_TO_SERVICE');
    expect(release.status).toBe(202);
    // The printed code checks against the order, for the holder as for anyone.
    const check = await server.request<SignOffCheck>('GET', `/api/v1/sign-offs/${signed.body.code}`, {
      token: holderX,
    });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ state: 'MATCHES', changes: [], signOff: { code: signed.body.code } });
    expect((await detail(holderY, orderId)).status).toBe(404);
    expect((await askDocument(holderY, orderId, 'RELEASE_TO_SERVICE')).status).toBe(404);
  });

  it('refuses a document type the holder does not get', async () => {
    const res = await askDocument(holderX, orderIds.gatxNord, 'XML_WORKSHOP');
    expect(res).toMatchObject({ status: 400, body: { code: 'VALIDATION' } });
  });
});

describe('the keeper marking', () => {
  it('moves an order between keepers with the workshop’s change, and back with its undo', async () => {
    const orderId = orderIds.moved;
    const counter = await pushAs(staff, orderId, MARKING_OUT, 'D-VTG');
    expect((await detail(holderX, orderId)).status).toBe(404);
    expect((await detail(holderY, orderId)).status).toBe(200);
    expect(idsOf((await list(holderY)).body)).toContain(orderId);
    expect(idsOf((await list(holderX)).body)).not.toContain(orderId);
    const undo = await server.request('PATCH', `/api/v1/activity/${orderId}/${counter}/reverted`, { token: staff });
    expect(undo.status).toBe(200);
    expect((await detail(holderX, orderId)).status).toBe(200);
    expect((await detail(holderY, orderId)).status).toBe(404);
    // A batch (the offline device's way) moves it as well; deleting the outgoing side leaves the incoming marking.
    const batch = await server.request('POST', '/api/v1/activity/batch', {
      token: staff,
      body: {
        activities: [push(orderId, MARKING_IN, 'D-VTG'), { ...push(orderId, MARKING_OUT, ''), t: 'XML_DELETE' }],
      },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect((await detail(holderX, orderId)).status).toBe(404);
    expect((await detail(holderY, orderId)).body.order.keeperMarking).toBe('D-VTG');
  });

  it('follows the keeper’s markings at once', async () => {
    const admin = await server.signIn('admin');
    const keepers = await server.request<{ id: number; name: string }[]>('GET', '/api/v1/keepers', { token: admin });
    const vtg = keepers.body.find((keeper) => keeper.name === 'VTG Rail Europe')!;
    const changed = await server.request('PUT', `/api/v1/keepers/${vtg.id}`, {
      token: admin,
      body: { name: 'VTG Rail Europe', markings: ['VTG', 'VTGX'] },
    });
    expect(changed.status).toBe(200);
    const orderId = (await createWagonOrder(server, staff2)).id;
    await pushAs(staff2, orderId, MARKING_OUT, 'A-VTGX');
    expect(idsOf((await list(holderY)).body)).toContain(orderId);
    await server.request('PUT', `/api/v1/keepers/${vtg.id}`, {
      token: admin,
      body: { name: 'VTG Rail Europe', markings: ['VTG'] },
    });
    expect(idsOf((await list(holderY)).body)).not.toContain(orderId);
  });

  it('is taken from an imported template’s incoming marking when the order is created from it', async () => {
    const template = readFileSync(new URL('../../../../docs/xml/example-wagon.xml', import.meta.url));
    const assetId = randomUUID();
    const upload = await server.request('POST', '/api/v1/assets', {
      token: staff,
      body: {
        id: assetId,
        type: 'IMPORT',
        filename: 'wagon.xml',
        base64: template.toString('base64'),
        size: template.length,
      },
    });
    expect(upload.status).toBe(200);
    for (let tries = 0; ; tries++) {
      const check = await get<{ validationStatus: string }>(staff, `/assets/validation-result/${assetId}/WAGON`);
      if (check.body.validationStatus !== 'IN_VALIDATION') break;
      if (tries > 1800) throw new Error('the template check did not end within 3 minutes');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const created = await server.request<{ id: string }>('POST', '/api/v1/orders', {
      token: staff,
      body: {
        id: randomUUID(),
        type: 'WAGON',
        maintenanceNumber: '218124712173',
        wagon: { assetId, wheelsetsOutgoing: wheelsetNumbers(4).map((number) => ({ number })) },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // The template's wagon is marked A-RCW on arrival: the order is the keeper of RCW's from its creation.
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, created.body.id));
    expect([row?.keeperVkm, row?.keeperMarking]).toEqual(['RCW', 'A-RCW']);
    expect((await detail(holderX, created.body.id)).status).toBe(404);
  });

  it('is derived at start-up for orders from before the column (migration 0014)', async () => {
    const orderId = (await createWagonOrder(server, staff)).id;
    await pushAs(staff, orderId, MARKING_OUT, 'D-GATX');
    const db = server.database.db;
    await db.update(orders).set({ keeperVkm: null, keeperMarking: null }).where(eq(orders.id, orderId));
    expect((await detail(holderX, orderId)).status).toBe(404);
    await db.insert(keeperVkmBackfill).values({ orderId });
    expect(await backfillKeeperVkm(db)).toBe(1);
    expect((await detail(holderX, orderId)).body.order.keeperMarking).toBe('D-GATX');
    expect(await db.select().from(keeperVkmBackfill)).toEqual([]);
  });
});

describe('a holder elsewhere', () => {
  it('is refused every workshop call of orders, changes, files and documents', async () => {
    const orderId = orderIds.gatxNord;
    const calls: [string, string][] = [
      ['GET', '/orders'],
      ['GET', '/orders/page'],
      ['GET', `/orders/${orderId}`],
      ['GET', `/activity/${orderId}`],
      ['GET', `/assets/order/${orderId}`],
      ['GET', `/orders/${orderId}/sign-offs`],
      ['POST', `/export/${orderId}/de`],
    ];
    for (const [method, path] of calls) {
      const res = await server.request(method, `/api/v1${path}`, {
        token: holderX,
        ...(method === 'POST' ? { body: { types: ['XML_KEEPER'] } } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it('is told its keeper at sign-in; others have none', async () => {
    const res = await server.request<{ keeper: unknown; workshop: unknown }>('POST', '/api/v1/auth/signin', {
      body: { userName: 'holder', password: 'Demo-Pass1' },
    });
    expect(res.body).toMatchObject({
      workshop: null,
      keeper: { name: 'GATX Rail Europe', markings: ['GATX'], id: expect.any(Number) },
    });
    const staffSession = await server.request<{ keeper: unknown }>('POST', '/api/v1/auth/signin', {
      body: { userName: 'staff', password: 'Demo-Pass1' },
    });
    expect(staffSession.body.keeper).toBeNull();
  });
});
