import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { activityPushResultSchema, serverActivitySchema } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IN, OUT, push, WAGON_NUMBER, wheelsetNumbers } from '../test/orders.ts';
import {
  createTestDatabase,
  DEMO_PASSWORD,
  JWT_SECRET,
  requestAt,
  type ServerProcess,
  startServerProcess,
} from '../test/server.ts';

/*
 * Durability of acknowledged pushes: the real server runs as its own process (as `npm start` runs it), takes many
 * concurrent pushes, and is killed with SIGKILL in the middle, with pushes in flight. After a restart on the same
 * data (the PGlite folder, or the same PostgreSQL database when TEST_DATABASE_URL is set) every push it
 * acknowledged is there with the counter it answered, counters are still dense, and sending the unacknowledged
 * pushes again (same ids) applies each exactly once.
 */

/** Pushes in the run, and how many activities the server must acknowledge before it is killed. */
const PUSHES = 400;
const KILL_AFTER_ACKED = 80;
const CONCURRENCY = 16;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function killHard(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

/** A call of the API of the server at `url`. */
const request = (url: string, method: string, route: string, token?: string, body?: unknown) =>
  requestAt(url, method, `/api/v1${route}`, { token, body });

async function signIn(url: string): Promise<string> {
  const res = await request(url, 'POST', '/auth/signin', undefined, { userName: 'staff', password: DEMO_PASSWORD });
  expect(res.status).toBe(200);
  return z.object({ token: z.string() }).parse(res.body).token;
}

async function createOrder(url: string, token: string): Promise<string> {
  const res = await request(url, 'POST', '/orders', token, {
    id: randomUUID(),
    type: 'WAGON',
    contractor: 'DBC',
    externalOrderNumber: 'EXT-DURABLE',
    maintenanceNumber: WAGON_NUMBER,
    wagon: { number: WAGON_NUMBER, wheelsetsOutgoing: wheelsetNumbers(4).map((number) => ({ number })) },
  });
  expect(res.status).toBe(200);
  return z.object({ id: z.string() }).parse(res.body).id;
}

async function activitiesOf(url: string, token: string, orderId: string) {
  const res = await request(url, 'GET', `/activity/${orderId}`, token);
  expect(res.status).toBe(200);
  return z.array(serverActivitySchema).parse(res.body);
}

/** The order's highest counter as the browsers' pull asks for it. */
async function lastCounter(url: string, token: string, orderId: string) {
  const res = await request(url, 'GET', `/activity/${orderId}/last`, token);
  expect(res.status).toBe(200);
  return z.object({ last: z.number() }).parse(res.body).last;
}

type Body = ReturnType<typeof push>;
/** One call: a single `POST activity` or a `POST activity/batch`. */
type Push = { kind: 'single'; body: Body } | { kind: 'batch'; bodies: Body[] };
const bodiesOf = (p: Push) => (p.kind === 'single' ? [p.body] : p.bodies);

const KEYS = [`${OUT}.Eigengewicht`, `${IN}.Eigengewicht`, `${OUT}.AnzahlAchsen`];

function makePushes(orderIds: readonly string[]): Push[] {
  return Array.from({ length: PUSHES }, (_, i): Push => {
    const orderId = orderIds[i % orderIds.length]!;
    const body = (j: number) => push(orderId, KEYS[(i + j) % KEYS.length]!, String(1000 + i * 10 + j));
    return i % 3 === 0 ? { kind: 'batch', bodies: [0, 1, 2, 3].map(body) } : { kind: 'single', body: body(0) };
  });
}

/** Sends one push; its results when the server answered 200, null when the connection broke. */
async function send(url: string, token: string, p: Push) {
  const res = await request(
    url,
    'POST',
    p.kind === 'single' ? '/activity' : '/activity/batch',
    token,
    p.kind === 'single' ? p.body : { activities: p.bodies },
  ).catch(() => null);
  if (!res) return null;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return p.kind === 'single'
    ? [activityPushResultSchema.parse(res.body)]
    : z.array(activityPushResultSchema).parse(res.body);
}

/** The database for the run: a PGlite folder, or a fresh database on TEST_DATABASE_URL's server. */
async function openTarget(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vers-durability-'));
  const env = {
    VERS_DATA_DIR: dataDir,
    VERS_DEMO_PASSWORD: DEMO_PASSWORD,
    VERS_JWT_SECRET: JWT_SECRET,
    VERS_WEB_DIST: path.join(dataDir, 'no-web-dist'),
  };
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  const database = await createTestDatabase();
  if (!database) return { env, drop: removeDir };
  return {
    env: { ...env, DATABASE_URL: database.url },
    drop: async () => {
      await database.drop();
      await removeDir();
    },
  };
}

let target: Awaited<ReturnType<typeof openTarget>>;
const started: ServerProcess[] = [];

beforeAll(async () => {
  target = await openTarget();
});

afterAll(async () => {
  for (const server of started) await killHard(server);
  await target?.drop();
});

describe('a server killed while pushes are in flight', () => {
  it('keeps every acknowledged push with its counter; resent pushes apply exactly once', async () => {
    const first = await startServerProcess(target.env);
    started.push(first);
    let token = await signIn(first.url);
    const orderIds = [await createOrder(first.url, token), await createOrder(first.url, token)];
    const pushes = makePushes(orderIds);

    // Many pushes at once; the server is killed soon after enough have been acknowledged, while every worker still
    // has one in flight.
    const acked = new Map<string, number>();
    const unacked: Push[] = [];
    let inFlight = 0;
    let inFlightAtKill = -1;
    let dead = false;
    let killed: Promise<void> | null = null;
    let next = 0;
    const worker = async () => {
      while (next < pushes.length) {
        const p = pushes[next++]!;
        if (dead) {
          unacked.push(p);
          continue;
        }
        inFlight += 1;
        const results = await send(first.url, token, p);
        inFlight -= 1;
        if (!results) {
          unacked.push(p);
          continue;
        }
        for (const result of results) acked.set(result.id, result.co);
        if (!killed && acked.size >= KILL_AFTER_ACKED) {
          // A few milliseconds later, so that the kill may land inside a write rather than between answers.
          killed = sleep(Math.floor(Math.random() * 20)).then(() => {
            dead = true;
            inFlightAtKill = inFlight;
            return killHard(first);
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await killed;
    expect(killed, 'the server was killed in the middle').not.toBeNull();
    expect(inFlightAtKill, 'pushes in flight when the server was killed').toBeGreaterThan(0);
    expect(unacked.length).toBeGreaterThan(0);
    expect(acked.size + unacked.flatMap(bodiesOf).length).toBe(pushes.flatMap(bodiesOf).length);

    // Restarted on the same data.
    const second = await startServerProcess(target.env);
    started.push(second);
    token = await signIn(second.url);
    const pushedTo = new Map(pushes.flatMap(bodiesOf).map((body) => [body.id, body]));
    const survived = new Map<string, number>();
    for (const orderId of orderIds) {
      const log = await activitiesOf(second.url, token, orderId);
      expect(
        log.map((a) => a.co),
        'dense counters after the crash',
      ).toEqual(log.map((_, i) => i + 1));
      expect(new Set(log.map((a) => a.id)).size).toBe(log.length);
      expect(await lastCounter(second.url, token, orderId), 'the order row agrees with its log').toBe(log.length);
      for (const activity of log.slice(10)) {
        const body = pushedTo.get(activity.id);
        expect(body, `activity ${activity.co} was never pushed`).toBeDefined();
        expect(activity).toMatchObject({ oI: orderId, k: body!.k, oV: body!.oV });
        survived.set(activity.id, activity.co);
      }
    }
    for (const [id, co] of acked) expect(survived.get(id), `acknowledged ${id} (counter ${co}) lost`).toBe(co);

    // The unacknowledged ones again, with their ids: each applied once; those the server had kept their counter.
    const resent = new Map<string, number>();
    await Promise.all(
      unacked.map(async (p) => {
        const results = await send(second.url, token, p);
        expect(results).not.toBeNull();
        for (const result of results!) resent.set(result.id, result.co);
      }),
    );
    for (const [id, co] of survived) if (!acked.has(id)) expect(resent.get(id)).toBe(co);
    // And everything once more: nothing new, the same answers.
    const all = new Map([...acked, ...resent]);
    for (const p of pushes) {
      const results = await send(second.url, token, p);
      for (const result of results!) expect(result.co).toBe(all.get(result.id));
    }

    for (const orderId of orderIds) {
      const log = await activitiesOf(second.url, token, orderId);
      const mine = pushes.flatMap(bodiesOf).filter((body) => body.oI === orderId);
      expect(log).toHaveLength(10 + mine.length);
      expect(await lastCounter(second.url, token, orderId)).toBe(log.length);
      expect(log.map((a) => a.co)).toEqual(log.map((_, i) => i + 1));
      expect(
        log
          .slice(10)
          .map((a) => a.id)
          .sort(),
      ).toEqual(mine.map((body) => body.id).sort());
      for (const activity of log.slice(10)) expect(activity.co).toBe(all.get(activity.id));
    }
  }, 180_000);
});
