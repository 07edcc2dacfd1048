import {
  type Activity,
  activityPushResultSchema,
  foldActivities,
  fromServerActivity,
  serverActivitySchema,
  valueOf,
} from '@vers/domain';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { activities, workshops } from '../db/schema.ts';
import { toServerActivity } from './protocol.ts';
import { type TestServer, startTestServer } from '../test/server.ts';
import { IN, OUT, createWagonOrder, push, signOff } from '../test/orders.ts';

let server: TestServer;
let staff: string;
let staff2: string;
const NORTH_NAME = 'VERS Demo-Werkstatt Nord';

/** Catalogued wagon fields of several kinds. */
const FIELDS = [
  `${OUT}.Eigengewicht`,
  `${OUT}.Halterkurzkennzeichen`,
  `${IN}.LetztesLadegut`,
  `${OUT}.AnzahlAchsen`,
  `${OUT}.Bemerkung`,
  `${IN}.Halterkurzkennzeichen`,
  `${OUT}.TSIZulassungsstelle`,
];

beforeAll(async () => {
  server = await startTestServer();
  [staff, staff2] = await server.signInAll(['staff', 'staff2']);
});
afterAll(async () => {
  await server?.close();
});

const log = async (orderId: string, query = '') =>
  z
    .array(serverActivitySchema)
    .parse((await server.request('GET', `/api/v1/activity/${orderId}${query}`, { token: staff })).body);

const send = (body: unknown, token = staff) =>
  server.request<z.infer<typeof activityPushResultSchema> & { code?: string }>('POST', '/api/v1/activity', {
    token,
    body,
  });

/** The server's log folded by the shared domain function, as a browser would fold it. */
function fold(rows: z.infer<typeof serverActivitySchema>[]) {
  return foldActivities(rows.map(fromServerActivity)).values;
}

describe('POST activity', () => {
  it('appends with the next counter, a server time and the modifier when the workshop logs changes', async () => {
    const order = await createWagonOrder(server, staff);
    const res = await send(push(order.id, `${OUT}.Halterkurzkennzeichen`, 'D-DB'));
    expect(res.status).toBe(200);
    expect(activityPushResultSchema.parse(res.body)).toMatchObject({ co: 11, mod: 'Schlosser' });
    expect(new Date(res.body.lm).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const south = await createWagonOrder(server, staff2); // the southern workshop does not log modifiers
    expect((await send(push(south.id, `${OUT}.Halterkurzkennzeichen`, 'A-RCA'), staff2)).body.mod).toBe('');
  });

  it('answers a repeated push with the first result and applies it once', async () => {
    const order = await createWagonOrder(server, staff);
    const body = push(order.id, `${IN}.Eigengewicht`, '23500');
    const first = await send(body);
    const again = await send(body);
    expect(again.body).toEqual(first.body);
    expect((await log(order.id)).filter((a) => a.id === body.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown order (the browser marks it unknown) and 400 for malformed activities', async () => {
    expect((await send(push(randomUUID(), `${IN}.Eigengewicht`, '1'))).status).toBe(404);
    const order = await createWagonOrder(server, staff);
    const malformed = [
      push(order.id, '$.Body.Radsatz.technicalWheelsetIncoming.Position', '1'), // another order type's root
      push(order.id, 'Eigengewicht', '1'),
      { ...push(order.id, `${IN}.Eigengewicht`, '1'), oV: '{not json' },
      { ...push(order.id, `${IN}.Eigengewicht`, '1'), id: 'not-a-uuid' },
      { ...push(order.id, `${IN}.Eigengewicht`, '1'), c: 'yesterday' },
      { ...push(order.id, `${IN}.Eigengewicht`, '1'), t: 'ORDER_STATUS_MODIFICATION' },
      { oI: order.id, k: `${IN}.Eigengewicht` },
    ];
    for (const body of malformed) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await log(order.id)).toHaveLength(10);
  });

  it('refuses a key outside the field catalogue and a value that does not fit its kind, naming the path', async () => {
    const order = await createWagonOrder(server, staff);
    const wrong = [
      push(order.id, `${OUT}.NoSuchField`, 'x'),
      push(order.id, `${OUT}.Eigengewicht`, 'abc'), // letters in a number field
      push(order.id, `${OUT}.AllowableAxleLoad`, '22.55'), // more decimals than the field keeps
      push(order.id, `${OUT}.TSIApproval`, 'yes'), // boolean field
      push(order.id, `${OUT}.OverhaulDate`, '2026-02-30'),
      { ...push(order.id, `${OUT}.Halterkurzkennzeichen`, 'x'), oV: JSON.stringify('bare value') },
      push(order.id, `${OUT}.Eigengewicht`, '-5'), // a minus where the field has none
      push(order.id, `${OUT}.Halterkurzkennzeichen`, 'x'.repeat(201)), // longer than a text field holds
      push(order.id, `${OUT}.Tank.TestCollection.TankTest[0].Pruefdatum`, '2026-13'), // month and year
      push(order.id, `${OUT}.LoadLimitGrid.CmRasterArt`, 'CMX'), // not one of the field's fixed choices
      push(order.id, `${OUT}.Understructure.BogieCollection.Bogie[0]`, 'x'), // a whole entry is only deleted
    ];
    for (const body of wrong) {
      const res = await server.request<{ code: string; fields: string[] }>('POST', '/api/v1/activity', {
        token: staff,
        body,
      });
      expect(res.status, body.k).toBe(400);
      expect(res.body).toMatchObject({ code: 'INCOMPATIBLE_TYPE', fields: [body.k] });
    }
    expect(await log(order.id)).toHaveLength(10);
    expect((await send(push(order.id, `${OUT}.AllowableAxleLoad`, '22.5'))).status).toBe(200);
  });

  it('gives concurrent pushes distinct, dense counters', async () => {
    const order = await createWagonOrder(server, staff);
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => send(push(order.id, `${OUT}.Bemerkung`, `value ${i}`))),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.map((r) => r.body.co).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 11));
    expect((await server.request('GET', `/api/v1/activity/${order.id}/last`, { token: staff })).body).toMatchObject({
      last: 35,
    });
  });

  it('answers concurrent pushes of one id with one result and uses up one counter, among other pushes', async () => {
    const order = await createWagonOrder(server, staff);
    const body = push(order.id, `${OUT}.Bemerkung`, 'same');
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => send(i % 2 ? body : push(order.id, `${OUT}.Bemerkung`, `value ${i}`))),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const same = results.filter((_, i) => i % 2).map((r) => r.body);
    expect(same.every((r) => JSON.stringify(r) === JSON.stringify(same[0]))).toBe(true);
    const rows = await log(order.id);
    expect(rows.filter((a) => a.id === body.id)).toHaveLength(1);
    expect(rows.map((a) => a.co)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
  });

  it('answers a stored id of a done order with its first result, and refuses an id of another order', async () => {
    const werkadmin = await server.signIn('werkadmin');
    const order = await createWagonOrder(server, staff);
    const body = push(order.id, `${OUT}.Bemerkung`, 'before done');
    const first = await send(body);
    expect(first.status).toBe(200);
    const done = await signOff(server, werkadmin, order.id);
    expect(done.status).toBe(200);
    expect(await send(body)).toMatchObject({ status: 200, body: first.body });
    expect(await send(push(order.id, `${OUT}.Bemerkung`, 'after done'))).toMatchObject({
      status: 409,
      body: { code: 'ORDER_READ_ONLY' },
    });
    const other = await createWagonOrder(server, staff);
    expect(await send({ ...body, oI: other.id })).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(await log(other.id)).toHaveLength(10);
    // Another workshop's user learns nothing about the stored id either.
    expect((await send(body, staff2)).status).toBe(404);
  });

  it("writes the modifier by the workshop's protocol flag as it is at the time of the push", async () => {
    const order = await createWagonOrder(server, staff);
    const flag = (on: boolean) =>
      server.database.db.update(workshops).set({ addLastModifier: on }).where(eq(workshops.name, NORTH_NAME));
    try {
      await flag(false);
      expect((await send(push(order.id, `${OUT}.Bemerkung`, 'quiet'))).body.mod).toBe('');
    } finally {
      await flag(true);
    }
    expect((await send(push(order.id, `${OUT}.Bemerkung`, 'logged'))).body.mod).toBe('Schlosser');
  });
});

describe('batch push and pulls', () => {
  it('appends a batch in one transaction, in order, and a replay changes nothing', async () => {
    const order = await createWagonOrder(server, staff);
    const items = Array.from({ length: 50 }, (_, i) => push(order.id, FIELDS[i % FIELDS.length]!, String(i)));
    const res = await server.request<{ co: number }[]>('POST', '/api/v1/activity/batch', {
      token: staff,
      body: { activities: items },
    });
    expect(res.status).toBe(200);
    expect(res.body.map((r) => r.co)).toEqual(Array.from({ length: 50 }, (_, i) => i + 11));
    const replay = await server.request('POST', '/api/v1/activity/batch', {
      token: staff,
      body: { activities: items },
    });
    expect(replay.body).toEqual(res.body);
    expect(await log(order.id)).toHaveLength(60);
  });

  it('refuses a batch with a bad item as a whole, and one spanning two orders', async () => {
    const order = await createWagonOrder(server, staff);
    const other = await createWagonOrder(server, staff);
    const bad = [push(order.id, `${OUT}.Eigengewicht`, '1'), push(order.id, `${OUT}.Eigengewicht`, 'two')];
    expect(
      (await server.request('POST', '/api/v1/activity/batch', { token: staff, body: { activities: bad } })).status,
    ).toBe(400);
    const mixed = [push(order.id, `${OUT}.Eigengewicht`, '1'), push(other.id, `${OUT}.Eigengewicht`, '2')];
    expect(
      (await server.request('POST', '/api/v1/activity/batch', { token: staff, body: { activities: mixed } })).status,
    ).toBe(400);
    expect(await log(order.id)).toHaveLength(10);
  });

  it('pulls after a counter and one counter at a time', async () => {
    const order = await createWagonOrder(server, staff);
    expect((await log(order.id, '?after=7')).map((a) => a.co)).toEqual([8, 9, 10]);
    const one = await server.request('GET', `/api/v1/activity/${order.id}/3`, { token: staff });
    expect(serverActivitySchema.parse(one.body).co).toBe(3);
    expect((await server.request('GET', `/api/v1/activity/${order.id}/99`, { token: staff })).status).toBe(404);
  });
  it("answers a pull with the same JSON as the server's mapping of its stored rows, every field and time", async () => {
    const order = await createWagonOrder(server, staff);
    const key = `${OUT}.Bemerkung`;
    await send({ ...push(order.id, key, 'quote " backslash \\ ü € 🚃 tab\t nl\n ctl\u0001 </script>'), sn: 10 });
    await send({ ...push(order.id, key, 'second'), dv: randomUUID() });
    const second = (await log(order.id)).at(-1)!;
    await server.request('PATCH', `/api/v1/activity/${order.id}/${second.co}/reverted`, { token: staff });
    // Times with microseconds, as the database's own clock writes them (the wire carries milliseconds).
    await server.database.db
      .update(activities)
      .set({ lastModified: sql`'2026-03-04 05:06:07.891999+00'::timestamptz` })
      .where(eq(activities.id, second.id));
    const stored = await server.database.db
      .select()
      .from(activities)
      .where(eq(activities.orderId, order.id))
      .orderBy(asc(activities.counter));
    const res = await server.request('GET', `/api/v1/activity/${order.id}`, { token: staff });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(stored.map(toServerActivity));
    expect(stored.map(toServerActivity).find((a) => a.id === second.id)?.lm).toBe('2026-03-04T05:06:07.891Z');
    expect((res.body as { rs: number | null }[]).filter((a) => a.rs !== null)).toHaveLength(1);
    const after = await server.request('GET', `/api/v1/activity/${order.id}?after=${stored.at(-1)!.counter}`, {
      token: staff,
    });
    expect([after.status, after.body]).toEqual([200, []]);
  });
});

describe('reverts', () => {
  it('restores the previous value with a new activity, so every browser converges; twice changes nothing', async () => {
    const order = await createWagonOrder(server, staff);
    const key = `${OUT}.Halterkurzkennzeichen`;
    await send(push(order.id, key, 'A'));
    const b = await send(push(order.id, key, 'B'));
    const revert = await server.request<{ co: number }>('PATCH', `/api/v1/activity/${order.id}/${b.body.co}/reverted`, {
      token: staff,
    });
    expect(revert.status).toBe(200);
    expect(revert.body.co).toBe(b.body.co + 1);
    const rows = await log(order.id);
    expect(rows.find((r) => r.co === b.body.co)?.re).toBe(true);
    expect(valueOf(fold(rows)[key])).toBe('A');
    // Without the reverted flag (a browser that pulled only the new counter) the value is the same.
    expect(valueOf(fold(rows.map((r) => ({ ...r, re: false })))[key])).toBe('A');
    const again = await server.request('PATCH', `/api/v1/activity/${order.id}/${b.body.co}/reverted`, { token: staff });
    expect(again.body).toEqual(revert.body);
    expect(await log(order.id)).toHaveLength(rows.length);
  });

  it('removes a value that had none before', async () => {
    const order = await createWagonOrder(server, staff);
    const key = `${IN}.LetztesLadegut`;
    const a = await send(push(order.id, key, 'Getreide'));
    await server.request('PATCH', `/api/v1/activity/${order.id}/${a.body.co}/reverted`, { token: staff });
    expect(fold(await log(order.id))).not.toHaveProperty(key);
  });
});

describe('any interleaving of pushes, duplicates and reverts', () => {
  it('folds to the same state on the server as in the browser that sent them', async () => {
    const keys = [`${OUT}.Eigengewicht`, `${OUT}.AnzahlAchsen`, `${IN}.Eigengewicht`];
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('push' as const),
        key: fc.constantFrom(...keys),
        value: fc.integer({ min: 0, max: 9 }),
      }),
      fc.record({ kind: fc.constant('duplicate' as const) }),
      fc.record({ kind: fc.constant('revert' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const order = await createWagonOrder(server, staff, 2);
        // The browser's own copy: its activities with the server's answers.
        const local: Activity[] = [];
        for (const step of ops) {
          if (step.kind === 'push') {
            const body = push(order.id, step.key, String(step.value));
            const res = await send(body);
            local.push({
              id: body.id,
              orderId: order.id,
              key: body.k,
              outputValue: body.oV,
              activityType: 'XML_MODIFICATION',
              created: body.c,
              counter: res.body.co,
              counterLocal: local.length,
              reverted: false,
              sent: 1,
            });
          } else if (step.kind === 'duplicate' && local.length > 0) {
            const last = local.at(-1)!;
            const res = await send({
              id: last.id,
              oI: order.id,
              k: last.key,
              t: 'XML_MODIFICATION',
              oV: last.outputValue,
              c: last.created,
            });
            expect(res.body.co).toBe(last.counter);
          } else if (step.kind === 'revert') {
            const target = [...local].reverse().find((a) => !a.reverted);
            if (!target) continue;
            await server.request('PATCH', `/api/v1/activity/${order.id}/${target.counter}/reverted`, { token: staff });
            target.reverted = true;
          }
        }
        const server_ = fold(await log(order.id));
        const browser = foldActivities(local).values;
        for (const key of keys) expect(server_[key], key).toEqual(browser[key]);
      }),
      { numRuns: 15 },
    );
  });
});

// Found by the fuzz suite (src/security/fuzz.test.ts): PostgreSQL refused to compare with the integer counter.
describe('a counter beyond the database integer', () => {
  it('is refused with 400, in the query and in the path', async () => {
    const order = await createWagonOrder(server, staff);
    expect(
      await server.request('GET', `/api/v1/activity/${order.id}?after=2147483648`, { token: staff }),
    ).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: ['querystring.after'] } });
    for (const [method, path] of [
      ['GET', `/api/v1/activity/${order.id}/2147483648`],
      ['PATCH', `/api/v1/activity/${order.id}/2147483648/reverted`],
    ] as const) {
      expect(await server.request(method, path, { token: staff }), path).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION', fields: ['params.counter'] },
      });
    }
  });
});
