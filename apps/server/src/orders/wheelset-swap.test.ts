import { mountedWheelsetSchema, serverActivitySchema, wheelsetSwapActivityId as swapActivityId } from '@vers/domain';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestServer, startTestServer } from '../test/server.ts';
import { OUT, createWagonOrder, push, signOff, wheelsetNumbers } from '../test/orders.ts';
import { wagonReleaseEntries } from '../test/documents.ts';
import { orders } from '../db/schema.ts';
import { eq } from 'drizzle-orm';

let server: TestServer;
let staff: string;
let staff2: string;
let qa: string;
let werkadmin: string;

beforeAll(async () => {
  server = await startTestServer();
  [staff, staff2, qa, werkadmin] = await server.signInAll(['staff', 'staff2', 'qa', 'werkadmin']);
});
afterAll(async () => {
  await server?.close();
});

const LIST = `${OUT}.Understructure.WheelsetCollection.Wheelset`;
/** Numbers the wagon created by `createWagonOrder` does not carry (it has wheelsetNumbers(4)). */
const [, , , , FREE_A, FREE_B] = wheelsetNumbers(6) as [string, string, string, string, string, string];
const MOUNTED = wheelsetNumbers(4);

const swap = (orderId: string, body: Record<string, unknown>, token = staff) =>
  server.request('PATCH', `/api/v1/orders/${orderId}`, { token, body: { id: randomUUID(), ...body } });

const activitiesOf = async (orderId: string) =>
  z
    .array(serverActivitySchema)
    .parse((await server.request('GET', `/api/v1/activity/${orderId}`, { token: staff })).body);

const valueOf = (log: z.infer<typeof serverActivitySchema>[], key: string) => {
  const last = log.filter((a) => a.k === key).at(-1);
  if (!last || last.t === 'XML_DELETE') return null;
  return (JSON.parse(last.oV) as { value: unknown }).value;
};

describe('PATCH orders/{id}: the wheelset swap', () => {
  it('mounts a typed number, turns it and dismounts it, each as changes of the position’s outgoing entry', async () => {
    const order = await createWagonOrder(server, staff);
    const before = (await activitiesOf(order.id)).length;

    const mounted = await swap(order.id, { position: 2, wheelset: { number: FREE_A }, mountDate: '2026-11-20' });
    expect(mounted.status).toBe(200);
    expect(mountedWheelsetSchema.parse(mounted.body)).toEqual({
      position: 2,
      wheelset: { assetId: null, number: FREE_A },
      direction: 'NORMAL',
    });
    let log = await activitiesOf(order.id);
    expect(log.length - before).toBe(3);
    expect(valueOf(log, `${LIST}[1].Wheelsetnumber`)).toBe(FREE_A);
    expect(valueOf(log, `${LIST}[1].Direction`)).toBe('NORMAL');
    expect(valueOf(log, `${LIST}[1].MountDate`)).toBe('2026-11-20');
    expect(log.at(-1)).toMatchObject({ au: expect.stringMatching(/\S/) });

    const turned = await swap(order.id, { position: 2, direction: 'TURNED' });
    expect(turned).toMatchObject({
      status: 200,
      body: { position: 2, wheelset: { assetId: null, number: FREE_A }, direction: 'TURNED' },
    });
    log = await activitiesOf(order.id);
    expect(valueOf(log, `${LIST}[1].Direction`)).toBe('TURNED');

    const dismounted = await swap(order.id, { position: 2, wheelset: null });
    expect(dismounted).toMatchObject({ status: 200, body: { position: 2, wheelset: null, direction: null } });
    log = await activitiesOf(order.id);
    expect(valueOf(log, `${LIST}[1].Wheelsetnumber`)).toBeNull();
    expect(valueOf(log, `${LIST}[1].Direction`)).toBeNull();
    // The position stays.
    expect(valueOf(log, `${LIST}[1].Position`)).toBe('2');
  });

  it('adds the entry and raises the number of axles when the position has none', async () => {
    const order = await createWagonOrder(server, staff);
    const answer = await swap(order.id, { position: 5, wheelset: { number: FREE_A }, direction: 'TURNED' });
    expect(answer).toMatchObject({ status: 200, body: { position: 5, direction: 'TURNED' } });
    const log = await activitiesOf(order.id);
    expect(valueOf(log, `${LIST}[4].Position`)).toBe('5');
    expect(valueOf(log, `${OUT}.AnzahlAchsen`)).toBe('5');
  });

  it('answers a resend (a lost answer) with the same wheelset and writes nothing twice', async () => {
    const order = await createWagonOrder(server, staff);
    const body = { id: randomUUID(), position: 3, wheelset: { number: FREE_A } };
    const first = await server.request('PATCH', `/api/v1/orders/${order.id}`, { token: staff, body });
    const count = (await activitiesOf(order.id)).length;
    // Meanwhile another user turns it: the resend still answers what the swap made.
    expect((await swap(order.id, { position: 3, direction: 'TURNED' }, werkadmin)).status).toBe(200);
    const again = await server.request('PATCH', `/api/v1/orders/${order.id}`, { token: staff, body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const log = await activitiesOf(order.id);
    expect(log.length).toBe(count + 1);
    expect(log.filter((a) => a.id === swapActivityId(body.id, 0))).toHaveLength(1);
    // The same id for another swap is a fault of the client, refused.
    const reused = await server.request('PATCH', `/api/v1/orders/${order.id}`, {
      token: staff,
      body: { ...body, wheelset: { number: FREE_B } },
    });
    expect(reused).toMatchObject({ status: 409, body: { code: 'ACTIVITY_ID_REUSED' } });
  });

  it('refuses with clear codes and writes nothing', async () => {
    const order = await createWagonOrder(server, staff);
    const count = (await activitiesOf(order.id)).length;
    const wrongCheck = `${FREE_A.slice(0, 11)}${(Number(FREE_A.at(-1)) + 1) % 10}`;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ position: 1, wheelset: { number: wrongCheck } }, 400, 'CHECK_NUMBER'],
      [{ position: 0, wheelset: { number: FREE_A } }, 400, 'WHEELSET_POSITION'],
      [{ position: 9, wheelset: { number: FREE_A } }, 400, 'WHEELSET_POSITION'],
      [{ position: 1, wheelset: { number: MOUNTED[1] } }, 409, 'WHEELSET_MOUNTED_ELSEWHERE'],
      [{ position: 6, direction: 'TURNED' }, 409, 'WHEELSET_NOT_MOUNTED'],
      [{ position: 1, direction: 'turned' }, 400, 'VALIDATION'],
      [{ position: 1 }, 400, 'VALIDATION'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await swap(order.id, body);
      expect({ body, status: answer.status, code: (answer.body as { code: string }).code }).toEqual({
        body,
        status,
        code,
      });
    }
    expect((await activitiesOf(order.id)).length).toBe(count);
  });

  it('refuses a wheelset order, a done order, a reading role and another workshop’s order', async () => {
    const wheelsetOrder = await server.request<{ id: string }>('POST', '/api/v1/orders', {
      token: staff,
      body: { id: randomUUID(), type: 'WHEELSET', maintenanceNumber: FREE_B },
    });
    expect(await swap(wheelsetOrder.body.id, { position: 1, wheelset: { number: FREE_A } })).toMatchObject({
      status: 400,
      body: { code: 'WHEELSET_ORDER' },
    });
    const order = await createWagonOrder(server, staff);
    expect(await swap(order.id, { position: 1, direction: 'TURNED' }, qa)).toMatchObject({
      status: 403,
      body: { code: 'ORDER_WRITE_FORBIDDEN' },
    });
    expect(await swap(order.id, { position: 1, direction: 'TURNED' }, staff2)).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect((await signOff(server, werkadmin, order.id)).status).toBe(200);
    expect(await swap(order.id, { position: 1, direction: 'TURNED' })).toMatchObject({
      status: 409,
      body: { code: 'ORDER_READ_ONLY' },
    });
  });

  it('mounts a wheelset from its XML import, taking the template’s values as the outgoing ones', async () => {
    const order = await createWagonOrder(server, staff);
    const xml = readFileSync(new URL('../../../../docs/xml/example-wheelset.xml', import.meta.url));
    const assetId = randomUUID();
    const upload = await server.request('POST', '/api/v1/assets', {
      token: staff,
      body: { id: assetId, type: 'IMPORT', filename: 'ws.xml', base64: xml.toString('base64'), size: xml.length },
    });
    expect(upload.status).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await server.request<{ validationStatus: string }>(
              'GET',
              `/api/v1/assets/validation-result/${assetId}/WHEELSET`,
              { token: staff },
            )
          ).body.validationStatus,
        { timeout: 20_000, interval: 100 },
      )
      .toBe('VALID');
    const wrongNumber = await swap(order.id, { position: 4, wheelset: { number: FREE_A, assetId } });
    expect(wrongNumber).toMatchObject({ status: 400, body: { code: 'VALIDATION' } });
    const answer = await swap(order.id, { position: 4, wheelset: { number: '31 80 0123 451-3', assetId } });
    expect(answer).toMatchObject({
      status: 200,
      body: { position: 4, wheelset: { assetId, number: '318001234513' }, direction: 'NORMAL' },
    });
    const log = await activitiesOf(order.id);
    expect(valueOf(log, `${LIST}[3].Type`)).toBe('BA 004');
    expect(valueOf(log, `${LIST}[3].AssetId`)).toBe(assetId);
    // The template's incoming-only fields (the dismount date) are not outgoing values.
    expect(valueOf(log, `${LIST}[3].DismountDate`)).toBeNull();
  });

  it('keeps both of two racing swaps of one position, in the order the lock gave them', async () => {
    const order = await createWagonOrder(server, staff);
    const [a, b] = await Promise.all([
      swap(order.id, { position: 1, wheelset: { number: FREE_A } }),
      swap(order.id, { position: 1, wheelset: { number: FREE_B } }, werkadmin),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const log = await activitiesOf(order.id);
    const numbers = log.filter((x) => x.k === `${LIST}[0].Wheelsetnumber`).map((x) => valueOf([x], x.k));
    // Creation, then both swaps, whole and one after the other: counters dense, nothing lost.
    expect(numbers.slice(1).sort()).toEqual([FREE_A, FREE_B].sort());
    expect(log.map((x) => x.co)).toEqual(log.map((_, i) => i + 1));
    const last = numbers.at(-1);
    const swaps = log.slice(-6);
    expect(new Set(swaps.slice(0, 3).map((x) => x.au)).size).toBe(1);
    expect(new Set(swaps.slice(3).map((x) => x.au)).size).toBe(1);
    expect(valueOf(log, `${LIST}[0].Wheelsetnumber`)).toBe(last);
    // Two racing mounts of one number at two positions: one is refused, the wagon holds it once.
    const [c, d] = await Promise.all([
      swap(order.id, { position: 2, wheelset: { number: FREE_A === last ? FREE_B : FREE_A } }),
      swap(order.id, { position: 3, wheelset: { number: FREE_A === last ? FREE_B : FREE_A } }, werkadmin),
    ]);
    expect([c.status, d.status].sort()).toEqual([200, 409]);
  });

  it('keeps one wheelset that two offline devices mounted at two positions, and holds the release and the quality check back until one is swapped', async () => {
    const order = await createWagonOrder(server, staff);
    // Offline, a device records a swap as plain changes: position 3 gets position 1's wheelset. Its push is kept.
    const offlineMount = await server.request('POST', '/api/v1/activity/batch', {
      token: staff,
      body: {
        activities: [push(order.id, `${LIST}[2].Wheelsetnumber`, MOUNTED[0]!), ...wagonReleaseEntries(order.id)],
      },
    });
    expect(offlineMount.status).toBe(200);
    expect(valueOf(await activitiesOf(order.id), `${LIST}[2].Wheelsetnumber`)).toBe(MOUNTED[0]);
    // Complete otherwise, the release to service is refused, naming the later position's number; the order stays.
    const refused = await signOff(server, werkadmin, order.id, { status: 'DONE', meaning: 'RELEASED_TO_SERVICE' });
    expect(refused).toMatchObject({
      status: 409,
      body: { code: 'RELEASE_INCOMPLETE', fields: [`${LIST}[2].Wheelsetnumber`] },
    });
    // Nor does a quality check pass while the record has the wheelset at two places.
    const qualityCheck = await signOff(server, werkadmin, order.id, {
      status: 'DONE',
      meaning: 'QUALITY_CHECK_PASSED',
    });
    expect(qualityCheck).toMatchObject({
      status: 409,
      body: { code: 'WHEELSET_MOUNTED_TWICE', fields: [`${LIST}[2].Wheelsetnumber`] },
    });
    const [still] = await server.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(still?.status).toBe('CREATED');
    // Swapped at position 3, it may be issued.
    expect((await swap(order.id, { position: 3, wheelset: { number: FREE_A } })).status).toBe(200);
    expect(
      (await signOff(server, werkadmin, order.id, { status: 'DONE', meaning: 'RELEASED_TO_SERVICE' })).status,
    ).toBe(200);
  });
});
