import { createHash, randomUUID } from 'node:crypto';
import { type SignOff, type SignOffCheck, signedContentText } from '@vers/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { THROTTLE } from '../auth/throttle-policy.ts';
import { loginAttempts, orderSignOffs, orders } from '../db/schema.ts';
import { OUT, createWagonOrder, push, signOff } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
let staff: string;
let werkadmin: string;
let wagonqa: string;
let staff2: string;

beforeAll(async () => {
  server = await startTestServer();
  [staff, werkadmin, wagonqa, staff2] = await server.signInAll(['staff', 'werkadmin', 'wagonqa', 'staff2']);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.database.db.delete(loginAttempts);
});

const MARKING = `${OUT}.Halterkurzkennzeichen`;
const pushOne = (orderId: string, key: string, value: string) =>
  server.request('POST', '/api/v1/activity', { token: staff, body: push(orderId, key, value) });
const status = (orderId: string, target: string, token = werkadmin) =>
  server.request('POST', `/api/v1/orders/${orderId}/status`, { token, body: { status: target } });
const check = (code: string) => server.request<SignOffCheck>('GET', `/api/v1/sign-offs/${code}`);
const list = (orderId: string) =>
  server.request<SignOff[]>('GET', `/api/v1/orders/${orderId}/sign-offs`, { token: staff });
const orderStatus = async (orderId: string) =>
  (await server.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]?.status;

describe('sign-off', () => {
  it('sets DONE, records signer, role, meaning and the SHA-256 of the outgoing values, and answers a resend with the first', async () => {
    const order = await createWagonOrder(server, staff);
    expect((await pushOne(order.id, MARKING, 'D-GATX')).status).toBe(200);
    const id = randomUUID();
    const signed = await signOff(server, wagonqa, order.id, { id });
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({
      id,
      orderId: order.id,
      signer: 'Waltraud Wagenprüfer',
      role: 'ROLE_WORKSHOP_WAGON_QA',
      meaning: 'QUALITY_CHECK_PASSED',
      status: 'DONE',
      supersededAt: null,
    });
    expect(signed.body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(await orderStatus(order.id)).toBe('DONE');
    // The hash is of the outgoing values as the domain writes them, recomputable by anyone who has them.
    const [row] = await server.database.db.select().from(orderSignOffs).where(eq(orderSignOffs.id, id));
    expect(row?.content[MARKING]).toBe('D-GATX');
    expect(Object.keys(row!.content).every((key) => key.startsWith(`${OUT}.`))).toBe(true);
    const expected = createHash('sha256').update(signedContentText(row!.content)).digest('hex');
    expect(signed.body.contentHash).toBe(expected);
    // Its answer lost, the browser sends it again: the same sign-off, not a second.
    const again = await signOff(server, wagonqa, order.id, { id });
    expect(again).toMatchObject({ status: 200, body: signed.body });
    expect((await list(order.id)).body).toHaveLength(1);
    // A status call cannot set a done status; the order's own status again is harmless.
    expect(await status(order.id, 'DONE_ARCHIVED', wagonqa)).toMatchObject({
      status: 409,
      body: { code: 'SIGN_OFF_REQUIRED' },
    });
  });

  it('checks a code: MATCHES while the order holds what was signed, CHANGED with what changed after a reopening', async () => {
    const order = await createWagonOrder(server, staff);
    expect((await pushOne(order.id, MARKING, 'D-GATX')).status).toBe(200);
    const signed = await signOff(server, werkadmin, order.id);
    const before = await check(signed.body.code);
    expect(before.body).toMatchObject({ state: 'MATCHES', orderNumber: order.number, changes: [] });
    expect(before.body.currentHash).toBe(signed.body.contentHash);
    // Typed as printed (groups, lower case, O for 0) it is found too.
    const typed = signed.body.code
      .toLowerCase()
      .replace(/(.{4})(?!$)/g, '$1-')
      .replace(/0/g, 'o');
    expect((await check(typed)).body.signOff.id).toBe(signed.body.id);

    expect((await status(order.id, 'IN_WORK')).status).toBe(200);
    expect((await pushOne(order.id, MARKING, 'D-VTGD')).status).toBe(200);
    const after = await check(signed.body.code);
    expect(after.body.state).toBe('CHANGED');
    expect(after.body.signOff.supersededAt).not.toBeNull();
    expect(after.body.changes).toEqual([{ key: MARKING, signed: 'D-GATX', now: 'D-VTGD' }]);
    // The old sign-off stays in the history, superseded; a new one covers the new content.
    const again = await signOff(server, werkadmin, order.id);
    const history = (await list(order.id)).body;
    expect(history.map((row) => [row.id, row.supersededAt === null])).toEqual([
      [signed.body.id, false],
      [again.body.id, true],
    ]);
    expect((await check(again.body.code)).body.state).toBe('MATCHES');
    expect(again.body.contentHash).not.toBe(signed.body.contentHash);
    // Unknown or malformed codes find nothing.
    expect((await check('0000-0000-0000-0000')).status).toBe(404);
    expect((await check('not a code')).status).toBe(404);
  });

  it('refuses a wrong password without changing anything, and limits guesses as the sign-in does', async () => {
    const order = await createWagonOrder(server, staff);
    for (let i = 0; i < THROTTLE.accountAndAddress; i++) {
      const wrong = await signOff(server, werkadmin, order.id, { password: `Wrong-${i}` });
      expect(wrong).toMatchObject({ status: 400, body: { code: 'WRONG_PASSWORD' } });
    }
    const throttled = await signOff(server, werkadmin, order.id);
    expect(throttled).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } });
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await orderStatus(order.id)).toBe('CREATED');
    expect((await list(order.id)).body).toEqual([]);
  });

  it('refuses what the rules refuse: staff, a sign-off of an open order without a status, another workshop', async () => {
    const order = await createWagonOrder(server, staff);
    expect((await signOff(server, staff, order.id)).status).toBe(403);
    expect(await signOff(server, werkadmin, order.id, { meaning: 'QUALITY_CHECK_PASSED' })).toMatchObject({
      status: 409,
      body: { code: 'NOT_DONE' },
    });
    expect((await signOff(server, await server.signIn('werkadmin2'), order.id)).status).toBe(404);
    expect((await server.request('GET', `/api/v1/orders/${order.id}/sign-offs`, { token: staff2 })).status).toBe(404);
    expect(await orderStatus(order.id)).toBe('CREATED');
  });

  it('keeps sign-offs append-only in the database: no delete, no change but being superseded once', async () => {
    const order = await createWagonOrder(server, staff);
    const signed = await signOff(server, werkadmin, order.id);
    const db = server.database.db;
    const where = eq(orderSignOffs.id, signed.body.id);
    await expect(db.delete(orderSignOffs).where(where)).rejects.toThrow();
    await expect(
      db
        .update(orderSignOffs)
        .set({ contentHash: 'f'.repeat(64) })
        .where(where),
    ).rejects.toThrow();
    await expect(db.update(orderSignOffs).set({ signer: 'Someone Else' }).where(where)).rejects.toThrow();
    await db.update(orderSignOffs).set({ supersededAt: new Date() }).where(where);
    await expect(
      db
        .update(orderSignOffs)
        .set({ supersededAt: new Date(0) })
        .where(where),
    ).rejects.toThrow();
    const [row] = await db.select().from(orderSignOffs).where(where);
    expect(row).toMatchObject({ contentHash: signed.body.contentHash, signer: 'Werner Werkleiter' });
  });
});
