import { SERVER_IDENTITY_HEADERS, serverActivitySchema } from '@vers/domain';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { activities } from '../db/schema.ts';
import { eq } from 'drizzle-orm';
import { type TestServer, startTestServer } from '../test/server.ts';
import { OUT, createWagonOrder, push } from '../test/orders.ts';

/*
 * What keeps one person's entry from silently replacing or undoing another's (issue 16): reverts that name the
 * change by id, ids that cannot carry other content, conflicts judged by what each change had seen, and the database
 * identity and generation that tell a device the server went back in time. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */

let server: TestServer;
let staff: string;
let admin: string;
let staff2: string;

beforeAll(async () => {
  server = await startTestServer();
  [staff, admin, staff2] = await server.signInAll(['staff', 'werkadmin', 'staff2']);
});
afterAll(async () => {
  await server?.close();
});

type Answer = { co: number; id: string; code?: string };
const send = (body: unknown, token = staff) => server.request<Answer>('POST', '/api/v1/activity', { token, body });
const log = async (orderId: string) =>
  z
    .array(serverActivitySchema)
    .parse((await server.request('GET', `/api/v1/activity/${orderId}`, { token: staff })).body);
const revert = (orderId: string, counter: number, id?: string, token = staff) =>
  server.request<Answer>('PATCH', `/api/v1/activity/${orderId}/${counter}/reverted`, {
    token,
    ...(id ? { body: { id } } : {}),
  });
const KEY = `${OUT}.Eigengewicht`;
const MARKING = `${OUT}.Halterkurzkennzeichen`;

describe('a revert names the change by its id', () => {
  it('reverts when the counter holds that change, and refuses with 409 when it holds another', async () => {
    const order = await createWagonOrder(server, staff);
    const mine = push(order.id, KEY, '20000');
    const theirs = push(order.id, KEY, '21000');
    const first = await send(mine);
    const second = await send(theirs, admin);
    expect([first.status, second.status]).toEqual([200, 200]);

    // The client means its own change but names the other's counter (what a restored server would make of it).
    const moved = await revert(order.id, second.body.co, mine.id);
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('REVERT_TARGET_MOVED');
    expect((await log(order.id)).filter((a) => a.re)).toEqual([]);

    // Named right, it reverts; the other user's later value stands.
    expect((await revert(order.id, first.body.co, mine.id)).status).toBe(200);
    const after = await log(order.id);
    expect(after.find((a) => a.id === mine.id)?.re).toBe(true);
    expect(after.find((a) => a.id === theirs.id)?.re).toBe(false);
    // An id the server never had, at a counter it does not have: 404. The spec's call without a body still works.
    expect((await revert(order.id, 9999, randomUUID())).status).toBe(404);
    expect((await revert(order.id, second.body.co)).status).toBe(200);
  });
});

describe('an activity id carries one change', () => {
  it('answers a resend with the first result, and refuses the same id with other content (409), on every path', async () => {
    const order = await createWagonOrder(server, staff);
    const change = push(order.id, KEY, '20000');
    const first = await send(change);
    expect((await send(change)).body.co).toBe(first.body.co);
    const other = { ...change, oV: change.oV.replace('20000', '99999') };
    const single = await send(other);
    expect([single.status, single.body.code]).toEqual([409, 'ACTIVITY_ID_REUSED']);
    const batch = await server.request<{ code: string }>('POST', '/api/v1/activity/batch', {
      token: staff,
      body: { activities: [push(order.id, `${OUT}.Bemerkung`, 'a'), other] },
    });
    expect([batch.status, batch.body.code]).toEqual([409, 'ACTIVITY_ID_REUSED']);
    const twice = randomUUID();
    const inOneBatch = await server.request<{ code: string }>('POST', '/api/v1/activity/batch', {
      token: staff,
      body: { activities: [push(order.id, KEY, '1', twice), push(order.id, KEY, '2', twice)] },
    });
    expect([inOneBatch.status, inOneBatch.body.code]).toEqual([409, 'ACTIVITY_ID_REUSED']);
    // Nothing of the refused calls was written; the first value stands.
    const rows = await log(order.id);
    expect(rows.filter((a) => a.id === change.id)).toHaveLength(1);
    expect(rows.find((a) => a.id === change.id)?.oV).toContain('20000');
    expect(rows.some((a) => a.id === twice || a.k === `${OUT}.Bemerkung`)).toBe(false);
  });
});

describe('conflicts', () => {
  it('are judged from what each change had seen, with the author named, until someone who saw both decides', async () => {
    const order = await createWagonOrder(server, staff);
    const start = await send({ ...push(order.id, MARKING, 'DB'), sn: 0, dv: randomUUID() });
    // B changes it having seen the start; A, offline since before that, writes without having seen B's value.
    const deviceB = randomUUID();
    const deviceA = randomUUID();
    const b = { ...push(order.id, MARKING, 'Zans-B'), sn: start.body.co, dv: deviceB };
    const a = { ...push(order.id, MARKING, 'Zans-A'), sn: start.body.co, dv: deviceA };
    const fromB = await send(b, admin);
    expect(fromB.status, JSON.stringify(fromB.body)).toBe(200);
    const fromA = await send(a, staff);
    const conflicts = await server.request<{ k: string; replaced: { id: string }; by: { id: string } }[]>(
      'GET',
      `/api/v1/activity/${order.id}/conflicts`,
      { token: staff },
    );
    expect(conflicts.body).toEqual([
      { k: MARKING, replaced: { id: b.id, co: fromA.body.co - 1 }, by: { id: a.id, co: fromA.body.co } },
    ]);
    const rows = await log(order.id);
    expect(rows.find((r) => r.id === a.id)).toMatchObject({ sn: start.body.co, dv: deviceA, au: 'Stefan Schlosser' });
    // Same value, having seen less: no conflict. B keeps their value having seen A's: decided.
    const decision = { ...push(order.id, MARKING, 'Zans-B'), sn: fromA.body.co, dv: deviceB };
    expect((await send(decision, admin)).status).toBe(200);
    const after = await server.request('GET', `/api/v1/activity/${order.id}/conflicts`, { token: staff });
    expect(after.body).toEqual([]);
  });
});

describe('identity, generation and tombstones', () => {
  const identity = (headers: Headers) => ({
    database: headers.get(SERVER_IDENTITY_HEADERS.database),
    generation: Number(headers.get(SERVER_IDENTITY_HEADERS.generation)),
  });

  it('every signed-in answer carries the database identity and generation', async () => {
    const answer = await server.request('GET', '/api/v1/orders', { token: staff });
    expect(identity(answer.headers).database).toMatch(/^[0-9a-f-]{36}$/);
    expect(identity(answer.headers).generation).toBeGreaterThanOrEqual(1);
  });

  it('a client holding counters or ids the server lacks raises the generation once, however many report it', async () => {
    const order = await createWagonOrder(server, staff);
    const before = identity((await server.request('GET', '/api/v1/orders', { token: staff })).headers);
    const last = await server.request<{ last: number; generation: number }>(
      'GET',
      `/api/v1/activity/${order.id}/last?known=${order.lastCounter}`,
      { token: staff },
    );
    expect(last.body).toMatchObject({ last: order.lastCounter, generation: before.generation });
    // Ten devices at once: "I hold counter 500 of this order" — more than the server has.
    const reports = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.request<{ generation: number }>(
          'GET',
          `/api/v1/activity/${order.id}/last?known=500&generation=${before.generation}`,
          { token: staff },
        ),
      ),
    );
    expect(new Set(reports.map((r) => r.body.generation))).toEqual(new Set([before.generation + 1]));
    // A device whose change at a counter is not the server's: the id tells it.
    const rows = await log(order.id);
    const wrongId = await server.request<{ generation: number }>(
      'GET',
      `/api/v1/activity/${order.id}/last?known=${rows[0]!.co}&knownId=${randomUUID()}&generation=${before.generation + 1}`,
      { token: staff },
    );
    expect(wrongId.body.generation).toBe(before.generation + 2);
    expect(identity(wrongId.headers).generation).toBe(before.generation + 2);
    // A right report changes nothing.
    const right = await server.request<{ generation: number }>(
      'GET',
      `/api/v1/activity/${order.id}/last?known=${rows[0]!.co}&knownId=${rows[0]!.id}&generation=${before.generation + 2}`,
      { token: staff },
    );
    expect(right.body.generation).toBe(before.generation + 2);
  });

  it('tells a deletion (404 DELETED) from what the server never had or lost (404 NOT_FOUND), only in its workshop', async () => {
    const order = await createWagonOrder(server, staff);
    expect((await server.request('DELETE', `/api/v1/orders/${order.id}`, { token: staff })).status).toBe(204);
    const deleted = await server.request<{ code: string }>('GET', `/api/v1/orders/${order.id}`, { token: staff });
    expect([deleted.status, deleted.body.code]).toEqual([404, 'DELETED']);
    const never = await server.request<{ code: string }>('GET', `/api/v1/orders/${randomUUID()}`, { token: staff });
    expect([never.status, never.body.code]).toEqual([404, 'NOT_FOUND']);
    const foreign = await server.request<{ code: string }>('GET', `/api/v1/orders/${order.id}`, { token: staff2 });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'NOT_FOUND']);
    // The order's activities went with it.
    const left = await server.database.db.select().from(activities).where(eq(activities.orderId, order.id));
    expect(left).toEqual([]);
  });
});
