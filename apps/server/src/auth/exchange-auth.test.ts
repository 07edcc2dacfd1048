import { ROLES } from '@vers/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, users, workshops } from '../db/schema.ts';
import { createWagonOrder, OUT, push } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';
import { JS_WHITESPACE } from './session.ts';

/*
 * The calls of every device's exchange (push, batch, last, pull) check the token's user inside their own statement
 * (auth/session.ts, `userInStatement`). The same rules must hold there as everywhere: a signed-out token, a disabled
 * user or a changed password end the session at once, a user without the roles is refused, and nothing is written.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Every exchange call once, with its status; a push and a batch of a fresh change each. */
async function exchange(token: string, orderId: string) {
  const one = await server.request('POST', '/api/v1/activity', {
    token,
    body: push(orderId, `${OUT}.Eigengewicht`, '1'),
  });
  const batch = await server.request('POST', '/api/v1/activity/batch', {
    token,
    body: { activities: [push(orderId, `${OUT}.Eigengewicht`, '2'), push(orderId, `${OUT}.Eigengewicht`, '3')] },
  });
  const last = await server.request('GET', `/api/v1/activity/${orderId}/last`, { token });
  const pull = await server.request('GET', `/api/v1/activity/${orderId}?after=0`, { token });
  return [one.status, batch.status, last.status, pull.status];
}

const stored = async (orderId: string) =>
  (await server.database.db.select().from(activities).where(eq(activities.orderId, orderId))).length;

describe('exchange calls (user checked in their own statement)', () => {
  it('answer a signed-in user, and end at once when the token is signed out', async () => {
    const token = await server.signIn('staff');
    const order = await createWagonOrder(server, token);
    expect(await exchange(token, order.id)).toEqual([200, 200, 200, 200]);
    const before = await stored(order.id);
    expect((await server.request('POST', '/api/v1/auth/signout', { token })).status).toBe(204);
    expect(await exchange(token, order.id)).toEqual([401, 401, 401, 401]);
    expect(await stored(order.id)).toBe(before);
  });

  it('end at once when the user is disabled or the token version is raised', async () => {
    const token = await server.signIn('staff2');
    const order = await createWagonOrder(server, token);
    await server.database.db.update(users).set({ enabled: false }).where(eq(users.username, 'staff2'));
    expect(await exchange(token, order.id)).toEqual([401, 401, 401, 401]);
    await server.database.db.update(users).set({ enabled: true }).where(eq(users.username, 'staff2'));
    expect(await exchange(token, order.id)).toEqual([200, 200, 200, 200]);
    await server.database.db.update(users).set({ tokenVersion: 7 }).where(eq(users.username, 'staff2'));
    expect(await exchange(token, order.id)).toEqual([401, 401, 401, 401]);
  });

  it('refuse a user without the roles (403) and a foreign order (404), writing nothing', async () => {
    const staff = await server.signIn('werkadmin');
    const order = await createWagonOrder(server, staff);
    const before = await stored(order.id);
    const holder = await server.signIn('holder');
    expect(await exchange(holder, order.id)).toEqual([403, 403, 403, 403]);
    const other = await server.signIn('werkadmin2');
    expect(await exchange(other, order.id)).toEqual([404, 404, 404, 404]);
    expect(await stored(order.id)).toBe(before);
  });

  it('tell a refused user 401 before anything about the request', async () => {
    const token = await server.signIn('wagonqa');
    const order = await createWagonOrder(server, token);
    await server.request('POST', '/api/v1/auth/signout', { token });
    const malformed = await server.request('POST', '/api/v1/activity', { token, body: { id: 'not-a-uuid' } });
    expect(malformed.status).toBe(401);
    const unknownKey = await server.request('POST', '/api/v1/activity', {
      token,
      body: push(order.id, '$.Body.Nothing.here', 'x'),
    });
    expect(unknownKey.status).toBe(401);
  });

  it('write the author and modifier as authorOf makes them, and the identity headers', async () => {
    const token = await server.signIn('wheelsetqa');
    const order = await createWagonOrder(server, token);
    const [row] = await server.database.db.select().from(users).where(eq(users.username, 'wheelsetqa'));
    await server.database.db
      .update(users)
      .set({ firstName: '\u00a0\t', lastName: 'Wheel\u3000' })
      .where(eq(users.id, row!.id));
    await server.database.db.update(workshops).set({ addLastModifier: true }).where(eq(workshops.id, row!.workshopId!));
    try {
      const one = await server.request<{ id: string; mod: string }>('POST', '/api/v1/activity', {
        token,
        body: push(order.id, `${OUT}.Eigengewicht`, '4'),
      });
      expect(one.status).toBe(200);
      expect(one.body.mod).toBe('Wheel\u3000');
      expect(one.headers.get('x-vers-database')).toMatch(/^[0-9a-f-]{36}$/);
      const [saved] = await server.database.db.select().from(activities).where(eq(activities.id, one.body.id));
      // `${firstName} ${lastName}`.trim() || username
      expect(saved!.author).toBe('Wheel');
      await server.database.db.update(users).set({ firstName: ' ', lastName: '\u2028' }).where(eq(users.id, row!.id));
      const nameless = await server.request<[{ id: string }]>('POST', '/api/v1/activity/batch', {
        token,
        body: { activities: [push(order.id, `${OUT}.Eigengewicht`, '5')] },
      });
      const [batched] = await server.database.db
        .select()
        .from(activities)
        .where(eq(activities.id, nameless.body[0].id));
      expect(batched!.author).toBe('wheelsetqa');
    } finally {
      await server.database.db
        .update(users)
        .set({ firstName: row!.firstName, lastName: row!.lastName, roles: [ROLES.WORKSHOP_WHEELSET_QA] })
        .where(eq(users.id, row!.id));
    }
  });

  it('trims in SQL exactly what JavaScript trims', () => {
    const trimmed = [];
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      if (char.trim() === '') trimmed.push(char);
    }
    expect([...JS_WHITESPACE].sort()).toEqual(trimmed.sort());
  });
});
