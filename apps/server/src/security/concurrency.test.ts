import { EMAIL_ADDRESSES_MAX, EMAIL_ADDRESSES_MIN, ROLES } from '@vers/domain';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { PNG } from 'pngjs';
import { THROTTLE } from '../auth/throttle-policy.ts';
import { DEVICE_COOKIE } from '../auth/throttle.ts';
import {
  assetThumbnails,
  defaultOptionValues,
  defaultOptions,
  loginAttempts,
  trustedDevices,
  users,
  workshops,
} from '../db/schema.ts';
import {
  type ApiResponse,
  DEMO_PASSWORD,
  type RequestOptions,
  type TestServer,
  createTestDatabase,
  startTestServer,
} from '../test/server.ts';
import { OUT, createWagonOrder, push, signOff } from '../test/orders.ts';

/**
 * Rules that check and then write, hit by racing requests (docs/security.md). Each runs on PGlite and on PostgreSQL:
 * the machine's server unless TEST_DATABASE_URL names another, with two server instances on one database there, the
 * requests shared between them, so a limit must hold across instances, not only inside one process.
 */
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Backend {
  servers: TestServer[];
  close(): Promise<void>;
}

const BACKENDS: [string, () => Promise<Backend>][] = [
  [
    'PGlite, one instance',
    async () => {
      const server = await startTestServer({ target: { pgliteDir: null } });
      return { servers: [server], close: () => server.close() };
    },
  ],
  [
    'PostgreSQL, two instances',
    async () => {
      const created = await createTestDatabase(POSTGRES_URL);
      if (!created) throw new Error('no PostgreSQL server named');
      const first = await startTestServer({ target: { url: created.url } });
      const second = await startTestServer({ target: { url: created.url } });
      return {
        servers: [first, second],
        close: async () => {
          await first.close();
          await second.close();
          await created.drop();
        },
      };
    },
  ],
];

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const tally = (responses: readonly ApiResponse[]) => {
  const byStatus: Record<number, number> = {};
  for (const res of responses) byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
  return byStatus;
};

describe.each(BACKENDS)('%s', (_name, open) => {
  let backend: Backend;
  /** The i-th request goes to instance i mod n. */
  const at = (i: number) => backend.servers[i % backend.servers.length]!;
  const db = () => backend.servers[0]!.database.db;
  const call = <T = unknown>(i: number, method: string, path: string, options?: RequestOptions) =>
    at(i).request<T>(method, `/api/v1${path}`, options);
  const signIn = (i: number, userName: string, password: string, cookie?: string) =>
    call<{ token?: string; code?: string }>(i, 'POST', '/auth/signin', {
      body: { userName, password },
      ...(cookie ? { headers: { cookie } } : {}),
    });

  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
  });
  beforeEach(async () => {
    // Every test starts with no failure on record (all requests come from 127.0.0.1) and no trusted device.
    await db().delete(loginAttempts);
    await db().delete(trustedDevices);
  });

  describe('sign-in limits', () => {
    it('check exactly as many of 40 parallel wrong passwords for one user as the limit allows', async () => {
      const answers = await Promise.all(range(40).map((i) => signIn(i, 'qa', `Wrong-Guess-${i}`)));
      expect(tally(answers)).toEqual({ 401: THROTTLE.accountAndAddress, 429: 40 - THROTTLE.accountAndAddress });
      for (const res of answers.filter((r) => r.status === 429)) {
        expect(res.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
    });

    it('count failures per address exactly: at 28 of 30, 100 parallel guesses over 7 users get 2 checks', async () => {
      const before = THROTTLE.address - 2;
      await db()
        .insert(loginAttempts)
        .values(range(before).map((i) => ({ username: `earlier-${i}`, address: '127.0.0.1' })));
      const names = ['qa', 'staff', 'holder', 'wagonqa', 'wheelsetqa', 'werkadmin', 'admin'];
      const answers = await Promise.all(range(100).map((i) => signIn(i, names[i % names.length]!, `Wrong-${i}`)));
      expect(tally(answers)).toEqual({ 401: 2, 429: 98 });
    });

    it('never lock out a device the user signed in on before, whatever fails elsewhere', async () => {
      const first = await signIn(0, 'staff', DEMO_PASSWORD);
      expect(first.status).toBe(200);
      const cookie = first.headers
        .getSetCookie()
        .map((c) => c.split(';')[0]!)
        .find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
      expect(cookie).toBeDefined();
      // Someone without the cookie, behind the same address, guesses staff's and everybody's passwords.
      await Promise.all(range(40).map((i) => signIn(i, i % 2 ? 'staff' : `someone-${i}`, `Wrong-${i}`)));
      expect((await signIn(1, 'staff', DEMO_PASSWORD)).status).toBe(429); // a new device waits...
      expect((await signIn(1, 'staff', DEMO_PASSWORD, cookie)).status).toBe(200); // ...the known one does not
      // The known device's own guesses are limited too, exactly.
      const own = await Promise.all(range(12).map((i) => signIn(i, 'staff', `Wrong-Own-${i}`, cookie)));
      expect(tally(own)).toEqual({ 401: THROTTLE.trustedDevice, 429: 12 - THROTTLE.trustedDevice });
    });

    it('limit wrong old passwords of a session as sign-ins, and end the session that keeps guessing', async () => {
      const token = (await signIn(0, 'wagonqa', DEMO_PASSWORD)).body.token!;
      const answers = await Promise.all(
        range(20).map((i) =>
          call(i, 'PUT', '/users/current/password', {
            token,
            body: { oldPassword: `Wrong-Old-${i}`, newPassword: 'Fresh-Pass9' },
          }),
        ),
      );
      // Exactly the limit's wrong passwords were checked; the next one ended the session, so the requests still
      // on their way answer 401 (a request that was past the token check when it ended answers 429).
      const { 400: checked = 0, 401: ended = 0, 429: refused = 0 } = tally(answers);
      expect(checked).toBe(THROTTLE.accountAndAddress);
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(checked + ended + refused).toBe(20);
      expect((await call(1, 'GET', '/auth/siteId', { token })).status).toBe(401);
    });
  });

  describe('last workshop admin', () => {
    /** A workshop of its own with two enabled admins, both signed in. */
    async function workshopWithTwoAdmins(trial: number) {
      const [workshop] = await db()
        .insert(workshops)
        .values({ name: `Race ${trial} ${Date.now()}` })
        .returning();
      const system = (await signIn(0, 'admin', DEMO_PASSWORD)).body.token!;
      const admins = [];
      for (const who of ['a', 'b']) {
        const created = await call<{ user: { id: number; username: string }; password: string }>(0, 'POST', '/users', {
          token: system,
          body: {
            username: `race-${trial}-${who}-${workshop!.id}`,
            firstName: 'Race',
            lastName: who.toUpperCase(),
            roles: [{ name: ROLES.WORKSHOP_ADMIN }],
            workshopId: workshop!.id,
          },
        });
        expect(created.status).toBe(201);
        const token = (await signIn(0, created.body.user.username, created.body.password)).body.token!;
        admins.push({ id: created.body.user.id, token });
      }
      return { workshopId: workshop!.id, a: admins[0]!, b: admins[1]! };
    }

    const enabledAdmins = async (workshopId: number) =>
      (
        await db()
          .select({ n: count() })
          .from(users)
          .where(
            and(
              eq(users.workshopId, workshopId),
              eq(users.enabled, true),
              sql`${ROLES.WORKSHOP_ADMIN} = ANY(${users.roles})`,
            ),
          )
      )[0]!.n;

    const disable = (i: number, token: string, id: number) =>
      call(i, 'PUT', `/users/${id}`, {
        token,
        body: { firstName: 'Race', lastName: 'X', roles: [{ name: ROLES.WORKSHOP_ADMIN }], enabled: false },
      });

    it('holds when two admins disable each other at the same moment (6 trials)', async () => {
      for (const trial of range(6)) {
        const { workshopId, a, b } = await workshopWithTwoAdmins(trial);
        const answers = await Promise.all([disable(0, a.token, b.id), disable(1, b.token, a.id)]);
        // One wins; the other finds itself disabled (401) or the other the last admin (409).
        expect(answers.map((r) => r.status).sort()).toSatisfy(
          (s: number[]) => s[0] === 200 && (s[1] === 401 || s[1] === 409),
        );
        expect(await enabledAdmins(workshopId)).toBe(1);
      }
    });

    it('holds when two admins delete each other at the same moment (3 trials)', async () => {
      for (const trial of range(3)) {
        const { workshopId, a, b } = await workshopWithTwoAdmins(100 + trial);
        const answers = await Promise.all([
          call(0, 'DELETE', `/users/${b.id}`, { token: a.token }),
          call(1, 'DELETE', `/users/${a.id}`, { token: b.token }),
        ]);
        expect(answers.map((r) => r.status).sort()).toSatisfy(
          (s: number[]) => s[0] === 204 && (s[1] === 401 || s[1] === 409),
        );
        expect(await enabledAdmins(workshopId)).toBe(1);
      }
    });

    it("ends a disabled user's sessions: the old token stays refused after re-enabling", async () => {
      const { a, b } = await workshopWithTwoAdmins(200);
      expect((await disable(0, a.token, b.id)).status).toBe(200);
      const enable = await call(1, 'PUT', `/users/${b.id}`, {
        token: a.token,
        body: { firstName: 'Race', lastName: 'B', roles: [{ name: ROLES.WORKSHOP_ADMIN }], enabled: true },
      });
      expect(enable.status).toBe(200);
      expect((await call(0, 'GET', '/auth/siteId', { token: b.token })).status).toBe(401);
      expect((await call(1, 'GET', '/auth/siteId', { token: b.token })).status).toBe(401);
    });
  });

  describe('e-mail address limits', () => {
    it(`keep at most ${EMAIL_ADDRESSES_MAX} and at least ${EMAIL_ADDRESSES_MIN} under parallel adds and deletes`, async () => {
      const token = (await signIn(0, 'werkadmin2', DEMO_PASSWORD)).body.token!;
      const listed = () => call<{ id: number }[]>(0, 'GET', '/emailAddress', { token });
      const free = EMAIL_ADDRESSES_MAX - (await listed()).body.length;
      const adds = await Promise.all(
        range(free + 4).map((i) =>
          call<{ id: number }>(i, 'POST', '/emailAddress', {
            token,
            body: { address: `race-${i}@example.org`, languageCode: 'de' },
          }),
        ),
      );
      expect(tally(adds)).toEqual({ 201: free, 409: 4 });
      const list = await listed();
      expect(list.body).toHaveLength(EMAIL_ADDRESSES_MAX);
      const deletes = await Promise.all(
        list.body.map((row, i) => call(i, 'DELETE', `/emailAddress/${row.id}`, { token })),
      );
      expect(tally(deletes)).toEqual({ 204: EMAIL_ADDRESSES_MAX - EMAIL_ADDRESSES_MIN, 409: EMAIL_ADDRESSES_MIN });
      expect((await listed()).body).toHaveLength(EMAIL_ADDRESSES_MIN);
    });

    it('answer 409, not 500, when the same address is added twice at once', async () => {
      const token = (await signIn(0, 'werkadmin', DEMO_PASSWORD)).body.token!;
      const answers = await Promise.all(
        range(2).map((i) =>
          call(i, 'POST', '/emailAddress', { token, body: { address: 'twice@example.org', languageCode: 'de' } }),
        ),
      );
      expect(tally(answers)).toEqual({ 201: 1, 409: 1 });
      expect(answers.find((r) => r.status === 409)?.body).toMatchObject({ code: 'EMAIL_EXISTS' });
    });
  });

  describe('value lists', () => {
    it('keep their last value when all values are deleted at once (3 trials)', async () => {
      const token = (await signIn(0, 'admin', DEMO_PASSWORD)).body.token!;
      for (const trial of range(3)) {
        const [list] = await db()
          .insert(defaultOptions)
          .values({ key: `race-${trial}-${Date.now()}`, lang: 'de', name: 'Race', text: 'Race list' })
          .returning();
        const values = await db()
          .insert(defaultOptionValues)
          .values(range(6).map((i) => ({ optionId: list!.id, value: `V${i}`, text: `Value ${i}` })))
          .returning();
        const deletes = await Promise.all(
          values.map((v, i) => call(i, 'DELETE', `/default-options/${list!.id}/${v.id}`, { token })),
        );
        expect(tally(deletes)).toEqual({ 204: 5, 409: 1 });
        const [left] = await db()
          .select({ n: count() })
          .from(defaultOptionValues)
          .where(eq(defaultOptionValues.optionId, list!.id));
        expect(left?.n).toBe(1);
      }
    });
  });

  describe('orders', () => {
    type Pushed = { co: number; code?: string };
    const MARKING = `${OUT}.Halterkurzkennzeichen`;

    it('a done order takes no change that lands after the status: racing pushes are either before it or refused', async () => {
      const [staff, qa] = await Promise.all([
        signIn(0, 'staff', DEMO_PASSWORD).then((r) => r.body.token!),
        signIn(1, 'wagonqa', DEMO_PASSWORD).then((r) => r.body.token!),
      ]);
      const order = await createWagonOrder(at(0), staff);
      // DONE is set by a sign-off, whose hash covers exactly the changes before it.
      const [done, ...pushes] = await Promise.all([
        signOff(at(1), qa, order.id),
        ...range(12).map((i) =>
          call<Pushed>(i, 'POST', '/activity', { token: staff, body: push(order.id, MARKING, `M${i}`) }),
        ),
      ]);
      expect(done!.status).toBe(200);
      const log = await call<{ co: number; t: string }[]>(0, 'GET', `/activity/${order.id}`, { token: staff });
      const doneAt = log.body.find((a) => a.t === 'ORDER_STATUS_MODIFICATION')!.co;
      for (const res of pushes) {
        if (res.status === 200) expect(res.body.co).toBeLessThan(doneAt);
        else expect([res.status, res.body.code]).toEqual([409, 'ORDER_READ_ONLY']);
      }
      const counters = log.body.map((a) => a.co).sort((a, b) => a - b);
      expect(counters).toEqual(range(counters.length).map((i) => i + 1)); // dense: none lost, none twice
      expect(counters.at(-1)).toBe(doneAt);
      // What was signed is what the order holds: the last push before the status, none after.
      const check = await call<{ state: string }>(2, 'GET', `/sign-offs/${done!.body.code}`);
      expect(check.body.state).toBe('MATCHES');
    });

    it('a sign-off racing a reopening is either superseded by it or refused: a reopened order has no valid sign-off', async () => {
      const [staff, admin, qa] = await Promise.all([
        signIn(0, 'staff', DEMO_PASSWORD).then((r) => r.body.token!),
        signIn(1, 'werkadmin', DEMO_PASSWORD).then((r) => r.body.token!),
        signIn(2, 'wagonqa', DEMO_PASSWORD).then((r) => r.body.token!),
      ]);
      for (const round of range(3)) {
        const order = await createWagonOrder(at(round), staff);
        expect((await signOff(at(round), qa, order.id)).status).toBe(200);
        const [again, reopened] = await Promise.all([
          signOff(at(round + 1), qa, order.id, { meaning: 'QUALITY_CHECK_PASSED' }),
          call(round, 'POST', `/orders/${order.id}/status`, { token: admin, body: { status: 'IN_WORK' } }),
        ]);
        expect(reopened.status).toBe(200);
        expect([200, 409]).toContain(again.status);
        if (again.status === 409) expect(again.body).toMatchObject({ code: 'NOT_DONE' });
        const list = await call<{ supersededAt: string | null }[]>(0, 'GET', `/orders/${order.id}/sign-offs`, {
          token: qa,
        });
        expect(list.body).toHaveLength(again.status === 200 ? 2 : 1);
        expect(list.body.every((row) => row.supersededAt !== null)).toBe(true);
      }
    });

    it('check exactly as many of 30 parallel wrong sign-off passwords as the sign-in limit allows', async () => {
      const staff = (await signIn(0, 'staff', DEMO_PASSWORD)).body.token!;
      const qa = (await signIn(1, 'wagonqa', DEMO_PASSWORD)).body.token!;
      const order = await createWagonOrder(at(0), staff);
      await db().delete(loginAttempts);
      const answers = await Promise.all(
        range(30).map((i) => signOff(at(i), qa, order.id, { password: `Wrong-Guess-${i}` })),
      );
      expect(tally(answers)).toEqual({ 400: THROTTLE.accountAndAddress, 429: 30 - THROTTLE.accountAndAddress });
      const read = await call<{ status: string }>(0, 'GET', `/orders/${order.id}`, { token: staff });
      expect(read.body.status).toBe('CREATED');
    });

    it("a picture's first views at the same moment: every one gets the same thumbnail, and one is kept", async () => {
      const staff = (await signIn(0, 'staff', DEMO_PASSWORD)).body.token!;
      const order = await createWagonOrder(at(0), staff);
      const png = new PNG({ width: 900, height: 600 });
      png.data.fill(170);
      const bytes = PNG.sync.write(png);
      const id = randomUUID();
      const stored = await call(0, 'POST', '/assets', {
        token: staff,
        body: {
          ...{ id, type: 'PICTURE', filename: 'bremse.png', orderId: order.id, creator: 'Tablet 1' },
          ...{ base64: bytes.toString('base64'), size: bytes.length },
        },
      });
      expect(stored.status).toBe(200);
      // Sent without a thumbnail: each of the racing first views makes one and tries to keep it.
      const views = await Promise.all(
        range(8).map((i) =>
          call<{ mime: string; base64: string }>(i, 'GET', `/assets/thumbnail/${id}`, { token: staff }),
        ),
      );
      expect(views.map((v) => [v.status, v.body.mime])).toEqual(range(8).map(() => [200, 'image/jpeg']));
      expect(new Set(views.map((v) => v.body.base64)).size).toBe(1);
      const [kept] = await db().select({ n: count() }).from(assetThumbnails).where(eq(assetThumbnails.assetId, id));
      expect(kept?.n).toBe(1);
    });

    it('two users deciding one conflict at the same moment: the later decision, not having seen the other, is a conflict', async () => {
      const [staff, admin] = await Promise.all([
        signIn(0, 'staff', DEMO_PASSWORD).then((r) => r.body.token!),
        signIn(1, 'werkadmin', DEMO_PASSWORD).then((r) => r.body.token!),
      ]);
      const order = await createWagonOrder(at(0), staff);
      const [deviceA, deviceB] = [randomUUID(), randomUUID()];
      const send = (i: number, token: string, value: string, seen: number, device: string) =>
        call<Pushed>(i, 'POST', '/activity', {
          token,
          body: { ...push(order.id, MARKING, value), sn: seen, dv: device },
        });
      const start = await send(0, staff, 'DB', 0, deviceA);
      await send(1, admin, 'Zans-B', start.body.co, deviceB);
      const fromA = await send(0, staff, 'Zans-A', start.body.co, deviceA);
      const conflicts = () =>
        call<{ by: { co: number } }[]>(0, 'GET', `/activity/${order.id}/conflicts`, { token: staff });
      expect((await conflicts()).body).toHaveLength(1);
      // Both decide at once, each having seen the conflict but not the other's decision.
      const decisions = await Promise.all([
        send(0, staff, 'Zans-A', fromA.body.co, deviceA),
        send(1, admin, 'Zans-B', fromA.body.co, deviceB),
      ]);
      expect(decisions.map((d) => d.status)).toEqual([200, 200]);
      const later = Math.max(...decisions.map((d) => d.body.co));
      expect((await conflicts()).body).toEqual([
        expect.objectContaining({ by: expect.objectContaining({ co: later }) }),
      ]);
    });
  });
});
