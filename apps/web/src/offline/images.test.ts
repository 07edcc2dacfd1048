// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process, which jsdom would get in the way of.
import 'fake-indexeddb/auto';
import { type Order, orderSchema, signInResponseSchema } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../../server/src/test/server.ts';
import { VersDb } from './versdb.ts';
import { png } from './test-support/png.ts';
import { oldVersDb } from './test-support/old-versdb.ts';
import { picturesFirstScreen } from './pictures-first-screen.ts';
import { removeWindowStub } from './test-node-globals.ts';
import { call, setApiOrigin } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import {
  deleteImage,
  deleteMarkedImages,
  devicePictures,
  fullPicture,
  refreshImages,
  sendImages,
  storeImage,
  tidyImages,
} from './images.ts';

const CLOSED_PORT = 'http://127.0.0.1:1';
let server: TestServer;
const databases: VersDb[] = [];

function device(): VersDb {
  const db = new VersDb(`versdb-images-${crypto.randomUUID()}`);
  databases.push(db);
  return db;
}

async function createOrder(): Promise<Order> {
  const eleven = (i: number) => `4${String(8_000_000_000 + i).slice(-10)}`;
  const { checkDigit } = await import('@vers/domain');
  return call('orders', orderSchema, {
    method: 'POST',
    body: {
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [1, 2].map((i) => ({ number: `${eleven(i)}${checkDigit(eleven(i))}` })) },
    },
  });
}

const serverPictures = async (orderId: string) =>
  (
    await server.request<{ id: string }[]>('GET', `/api/v1/assets/order/${orderId}?type=PICTURE`, {
      token: sessionStore.get()!.token,
    })
  ).body.map((asset) => asset.id);

beforeAll(async () => {
  removeWindowStub();
  server = await startTestServer();
  setApiOrigin(server.url);
  sessionStore.set(
    await call('auth/signin', signInResponseSchema, {
      method: 'POST',
      body: { userName: 'staff', password: DEMO_PASSWORD },
    }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(databases.map((db) => db.delete()));
  await server?.close();
});

describe('pictures', () => {
  it('are kept unsent, uploaded once under their own id, and fetched by another device', async () => {
    const order = await createOrder();
    const tablet = device();
    const stored = await storeImage(tablet, { orderId: order.id, tabName: 'brake', bytes: png() });
    if (!stored.ok) throw new Error(stored.problem);
    expect(stored.image).toMatchObject({ sent: 0, toBeDeleted: 0, tabName: 'brake', owner: sessionStore.get()!.id });

    expect(await sendImages(tablet)).toEqual({ sent: 1, refused: 0 });
    expect(await tablet.orderImages.get(stored.image.imageId)).toMatchObject({
      sent: 1,
      assetId: stored.image.imageId,
    });
    // Sent again (an answer lost): nothing twice.
    await tablet.orderImages.update(stored.image.imageId, { sent: 0 });
    expect(await sendImages(tablet)).toEqual({ sent: 1, refused: 0 });
    expect(await serverPictures(order.id)).toEqual([stored.image.imageId]);

    // The device keeps the picture as a Blob (a list reads a reference to it, not its bytes).
    expect((await tablet.orderImages.get(stored.image.imageId))?.data).toBeInstanceOf(Blob);

    // Another device lists it with the server's thumbnail only; the full picture comes when it is opened large.
    const other = device();
    expect(await refreshImages(other, order.id)).toEqual({ added: 1, dropped: 0, resent: 0 });
    const fetched = await other.orderImages.get(stored.image.imageId);
    expect(fetched).toMatchObject({ sent: 1, orderId: order.id, size: stored.image.size });
    expect(fetched?.data).toBeUndefined();
    expect(fetched?.thumb).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    const large = await fullPicture(other, fetched!);
    expect(new Uint8Array(await large.arrayBuffer())).toEqual(png());
    // Kept once fetched: offline it opens too.
    setApiOrigin(CLOSED_PORT);
    try {
      const kept = await other.orderImages.get(stored.image.imageId);
      expect(new Uint8Array(await (await fullPicture(other, kept!)).arrayBuffer())).toEqual(png());
    } finally {
      setApiOrigin(server.url);
    }
  });

  it('go to the server as the Blobs the device keeps, in a form (POST assets/upload), byte for byte', async () => {
    const order = await createOrder();
    const tablet = device();
    const stored = await storeImage(tablet, { orderId: order.id, tabName: 'brake', bytes: png(5, 7) });
    if (!stored.ok) throw new Error(stored.problem);
    const sent: { url: string; body: unknown }[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      sent.push({ url: String(input), body: init?.body });
      return realFetch(input, init);
    };
    try {
      expect(await sendImages(tablet)).toEqual({ sent: 1, refused: 0 });
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(sent.map(({ url }) => new URL(url).pathname)).toEqual(['/api/v1/assets/upload']);
    const form = sent[0]!.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    const file = form.get('file') as File;
    expect(file).toBeInstanceOf(Blob);
    expect({ type: file.type, size: file.size }).toEqual({ type: 'image/png', size: png(5, 7).length });
    expect(form.get('base64')).toBeNull();
    expect(Object.fromEntries([...form.keys()].map((key) => [key, true]))).toMatchObject({
      id: true,
      type: true,
      filename: true,
      size: true,
      orderId: true,
      created: true,
    });
    const onServer = await server.request<{ base64: string }>('GET', `/api/v1/assets/${stored.image.imageId}`, {
      token: sessionStore.get()!.token,
    });
    expect(onServer.body.base64).toBe(Buffer.from(png(5, 7)).toString('base64'));
  });

  it("sends the device's thumbnail with the picture; a picture kept as base64 text is sent and tidied too", async () => {
    const order = await createOrder();
    const tablet = device();
    // Node has no canvas: the device's thumbnail is given here as the browser makes it.
    const thumbnail = (await import('jpeg-js')).default
      .encode({ width: 4, height: 3, data: Buffer.alloc(48, 0x70) }, 80)
      .data.toString('base64');
    const imageId = crypto.randomUUID();
    await tablet.orderImages.add({
      imageId,
      orderId: order.id,
      tabName: 'brake',
      name: 'old.png',
      data: Buffer.from(png(6, 6)).toString('base64'), // as rows were kept before
      thumb: `data:image/jpeg;base64,${thumbnail}`,
      size: png(6, 6).length,
      capturedDate: new Date().toISOString(),
      sent: 0,
      toBeDeleted: 0,
      owner: sessionStore.get()!.id,
    });
    expect(await sendImages(tablet)).toEqual({ sent: 1, refused: 0 });
    const onServer = await server.request<{ mime: string; base64: string }>(
      'GET',
      `/api/v1/assets/thumbnail/${imageId}`,
      { token: sessionStore.get()!.token },
    );
    expect(onServer.body).toMatchObject({ mime: 'image/jpeg', base64: thumbnail });

    expect(await tidyImages(tablet, [imageId])).toBe(1);
    const tidied = await tablet.orderImages.get(imageId);
    expect(tidied?.data).toBeInstanceOf(Blob);
    expect(new Uint8Array(await (tidied!.data as Blob).arrayBuffer())).toEqual(png(6, 6));
    expect(tidied?.thumb).toBe(`data:image/jpeg;base64,${thumbnail}`);
    expect(await tidyImages(tablet, [imageId])).toBe(0);

    // A row without a thumbnail (made in node, where there is no canvas) gets the server's.
    await tablet.orderImages.update(imageId, { thumb: undefined });
    expect(await tidyImages(tablet, [imageId])).toBe(1);
    expect((await tablet.orderImages.get(imageId))?.thumb).toBe(`data:image/jpeg;base64,${thumbnail}`);
  });

  it('refuses what is not a complete PNG before storing anything', async () => {
    const tablet = device();
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
    expect(await storeImage(tablet, { orderId: crypto.randomUUID(), tabName: 'x', bytes: jpeg })).toEqual({
      ok: false,
      problem: 'notPng',
    });
    const cut = png().slice(0, 40);
    expect(await storeImage(tablet, { orderId: crypto.randomUUID(), tabName: 'x', bytes: cut })).toEqual({
      ok: false,
      problem: 'truncated',
    });
    expect(await tablet.orderImages.count()).toBe(0);
  });

  it('deletes: unsent at once; sent on the server, or marked and retried when the server cannot be reached', async () => {
    const order = await createOrder();
    const tablet = device();
    const unsent = await storeImage(tablet, { orderId: order.id, tabName: 'brake', bytes: png(2, 2) });
    if (!unsent.ok) throw new Error(unsent.problem);
    expect(await deleteImage(tablet, unsent.image)).toBe('deleted');
    expect(await tablet.orderImages.count()).toBe(0);

    const sent = await storeImage(tablet, { orderId: order.id, tabName: 'brake', bytes: png(3, 3) });
    if (!sent.ok) throw new Error(sent.problem);
    await sendImages(tablet);
    setApiOrigin(CLOSED_PORT);
    try {
      expect(await deleteImage(tablet, (await tablet.orderImages.get(sent.image.imageId))!)).toBe('later');
    } finally {
      setApiOrigin(server.url);
    }
    expect(await tablet.orderImages.get(sent.image.imageId)).toMatchObject({ toBeDeleted: 1 });
    expect(await serverPictures(order.id)).toEqual([sent.image.imageId]);
    expect(await deleteMarkedImages(tablet)).toBe(1);
    expect(await tablet.orderImages.count()).toBe(0);
    expect(await serverPictures(order.id)).toEqual([]);
  });

  it('waits for an order created offline; keeps a picture the server refuses, with the reason', async () => {
    const tablet = device();
    const offlineOrder = crypto.randomUUID();
    await tablet.orders.add({ id: offlineOrder, sent: 0, order: {} as Order });
    const waiting = await storeImage(tablet, { orderId: offlineOrder, tabName: 'brake', bytes: png() });
    const unknown = await storeImage(tablet, { orderId: crypto.randomUUID(), tabName: 'brake', bytes: png() });
    if (!waiting.ok || !unknown.ok) throw new Error('not stored');
    expect(await sendImages(tablet)).toEqual({ sent: 0, refused: 1 });
    expect(await tablet.orderImages.get(waiting.image.imageId)).toMatchObject({ sent: 0 });
    expect((await tablet.orderImages.get(waiting.image.imageId))?.refusal).toBeUndefined();
    expect(await tablet.orderImages.get(unknown.image.imageId)).toMatchObject({ sent: 0, refusal: { status: 404 } });
  });

  it('drops pictures someone deleted on the server, but never unsent ones', async () => {
    const order = await createOrder();
    const tablet = device();
    const gone = await storeImage(tablet, { orderId: order.id, tabName: 'brake', bytes: png() });
    if (!gone.ok) throw new Error(gone.problem);
    await sendImages(tablet);
    const res = await server.request('DELETE', `/api/v1/assets/${gone.image.imageId}`, {
      token: sessionStore.get()!.token,
    });
    expect(res.status).toBe(204);
    const waiting = await storeImage(tablet, { orderId: order.id, tabName: 'brake', bytes: png(5, 5) });
    if (!waiting.ok) throw new Error(waiting.problem);
    expect(await refreshImages(tablet, order.id)).toEqual({ added: 0, dropped: 1, resent: 0 });
    expect((await tablet.orderImages.toArray()).map((image) => image.imageId)).toEqual([waiting.image.imageId]);
  });

  it("lists the first screen as the whole list would: newest first, none waiting to be deleted, another order's left out", async () => {
    const tablet = device();
    const orderId = crypto.randomUUID();
    const minute = (i: number) => new Date(Date.UTC(2026, 10, 27, 8, i)).toISOString();
    // Added in a shuffled order of capture times, so that the index, not the order of adding, gives the list.
    const minutes = [7, 2, 14, 0, 9, 11, 4, 13, 1, 8, 3, 12, 6, 10, 5];
    const row = (imageId: string, capturedDate: string, toBeDeleted: 0 | 1, order = orderId) => ({
      imageId,
      orderId: order,
      tabName: 'brake',
      name: `${imageId}.png`,
      data: new Blob([Uint8Array.from(png())], { type: 'image/png' }),
      size: png().length,
      capturedDate,
      sent: 1 as const,
      toBeDeleted,
    });
    await tablet.orderImages.bulkAdd([
      ...minutes.map((i) => row(`p${i}`, minute(i), i === 13 || i === 4 ? 1 : 0)),
      // Two taken in the same second as p9: the whole list and the first screen give them in the same order.
      row('p9-same-a', minute(9), 0),
      row('p9-same-b', minute(9), 0),
      row('other-newest', minute(30), 0, crypto.randomUUID()),
    ]);
    const whole = (await devicePictures(tablet, orderId)).map((image) => image.imageId);
    expect(whole).toEqual([
      'p14',
      'p12',
      'p11',
      'p10',
      'p9-same-b',
      'p9-same-a',
      'p9',
      'p8',
      'p7',
      'p6',
      'p5',
      'p3',
      'p2',
      'p1',
      'p0',
    ]);

    const screen = await picturesFirstScreen(tablet.name, orderId, 12);
    expect(screen.count).toBe(15);
    expect(screen.pictures.map((image) => image.imageId)).toEqual(whole.slice(0, 12));
    expect(screen.pictures[0]?.data).toBeInstanceOf(Blob);
    expect(await picturesFirstScreen(tablet.name, crypto.randomUUID(), 12)).toEqual({ count: 0, pictures: [] });
  });

  it('finds the pictures a device kept before the capture-date index (a version 3 database)', async () => {
    const name = `versdb-images-v3-${crypto.randomUUID()}`;
    const old = oldVersDb(name, 3);
    const orderId = crypto.randomUUID();
    const kept = {
      imageId: crypto.randomUUID(),
      orderId,
      tabName: 'brake',
      name: 'kept.png',
      data: Buffer.from(png()).toString('base64'), // as rows were kept before issue 19
      size: png().length,
      capturedDate: new Date().toISOString(),
      sent: 0,
      toBeDeleted: 0,
    };
    await old.table('orderImages').add(kept);
    old.close();
    // Before the app's Dexie has upgraded it, the early read finds no index, says so, and changes nothing: the
    // list then reads through Dexie.
    await expect(picturesFirstScreen(name, orderId, 12)).rejects.toThrow();
    const tablet = new VersDb(name);
    databases.push(tablet);
    await tablet.open();
    expect(tablet.verno).toBe(0.4);
    expect(await picturesFirstScreen(tablet.name, orderId, 12)).toEqual({ count: 1, pictures: [kept] });
  });

  it('reads nothing from a device that has no database yet, and does not make one', async () => {
    const name = `versdb-none-${crypto.randomUUID()}`;
    await expect(picturesFirstScreen(name, crypto.randomUUID(), 12)).rejects.toThrow();
    expect((await indexedDB.databases()).map((database) => database.name)).not.toContain(name);
    // Dexie then makes it as always, at its version.
    const tablet = new VersDb(name);
    databases.push(tablet);
    await tablet.open();
    expect(tablet.verno).toBe(0.4);
  });

  it("never holds up Dexie's upgrade: started together on a version 3 database, the upgrade completes", async () => {
    const name = `versdb-v3-together-${crypto.randomUUID()}`;
    const old = oldVersDb(name, 3);
    await old.open();
    old.close();
    // As when the new app first starts on a device: the early read and the app's Dexie open the database together.
    const read = picturesFirstScreen(name, crypto.randomUUID(), 12).then(
      () => 'read',
      () => 'failed',
    );
    const tablet = new VersDb(name);
    databases.push(tablet);
    await tablet.open();
    expect(tablet.verno).toBe(0.4);
    // At version 3 there is no index to read: the early read fails, and the list reads through Dexie.
    expect(await read).toBe('failed');
  });
});
