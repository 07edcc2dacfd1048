// Throughput of the activity API (POST /api/v1/activity and /activity/batch) under 20 concurrent connections,
// against a baseline in the same run: a bare Fastify route on the same database that inserts the same kind of
// row with a plain counter, no token, no checks, no transaction. The load comes from autocannon in a worker
// thread, so the client does not take CPU from the server's event loop (PGlite runs in that loop too).
// Beside each rate: the CPU time the server's thread (this process's main thread) and, on PostgreSQL, the database's
// backends spent per request, and whether the server's thread waited for a CPU longer than it ran (starved: the rate
// is then a measurement of the machine's load, not of the code).
import { randomUUID } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import { and, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { toServerActivity } from '../../apps/server/src/activity/protocol.ts';
import { activities } from '../../apps/server/src/db/schema.ts';
import { createWagonOrder } from '../../apps/server/src/test/orders.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/server.ts';
import type { Figure, Section } from './figures.ts';
import { type ProcessCost, costNote, costSince, starvedNote, threadCost, watchBackends } from './process-time.ts';

const CONNECTIONS = 20;
const WARMUP_MS = 1_000;
const BATCH_SIZE = 100;
const KEY = '$.Body.Wagen.technicalWaggonOutgoing.Eigengewicht';
const WORKER_ROLE = 'activity-load';

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** 2xx answers counted in the measured window. */
  requests: number;
  /** Non-2xx answers, connection errors and timeouts: any of them makes the figures suspect. */
  failures: number;
}

/** A load's figures with what the server spent on it (warm-up included, as the requests are). */
export interface MeasuredLoad extends LoadFigures {
  /** The server's thread: this process's main thread. */
  server: ProcessCost;
  /** The PostgreSQL backends of the server's database; null on PGlite (which runs in the server's thread). */
  databaseCpuMs: number | null;
  /** 2xx answers of warm-up and measured window together, which the CPU time is divided by. */
  allRequests: number;
}

export interface ActivityThroughputFigures {
  database: 'pglite' | 'postgres';
  connections: number;
  durationMs: number;
  batchSize: number;
  /** The baseline: bare Fastify route, plain insert. */
  bare: MeasuredLoad;
  /** POST /api/v1/activity, new activities, each connection into an order of its own (as devices work). */
  push: MeasuredLoad;
  /** The same, every connection into one order: the pushes queue on its counter row (contention). */
  contention: MeasuredLoad;
  /** POST /api/v1/activity with ids already stored. */
  replay: MeasuredLoad;
  /** POST /api/v1/activity/batch with `batchSize` new activities each. */
  batch: MeasuredLoad & { activitiesPerSecond: number };
}

type Scenario =
  /** New activities; each connection pushes into one of `orderIds`, in turn (one id: all into one order). */
  | { kind: 'single'; orderIds: string[] }
  /** Activities stored already, sent again exactly as they were (a lost answer's resend). */
  | { kind: 'replay'; bodies: string[] }
  | { kind: 'batch'; orderId: string; size: number };

interface LoadJob {
  url: string;
  token?: string;
  connections: number;
  warmupMs: number;
  durationMs: number;
  scenario: Scenario;
}

interface Aggregating {
  aggregateResult(results: unknown[], options: autocannon.Options): autocannon.Result;
}

type LoadAnswer = { figures: LoadFigures; warmupRequests: number } | { error: string };

// ---- load generator (worker thread) ----

let sequence = 0;
function pushBody(orderId: string, id: string = randomUUID()) {
  const now = new Date().toISOString();
  return {
    id,
    oI: orderId,
    k: KEY,
    t: 'XML_MODIFICATION',
    oV: JSON.stringify({ value: String(++sequence), CaptureDate: now }),
    c: now,
  };
}

/** The body of the next request of a connection; `context` is autocannon's object of that connection. */
function bodyFor(scenario: Scenario): (context: Record<string, unknown>) => string {
  switch (scenario.kind) {
    case 'single': {
      let connections = 0;
      return (context) => {
        context.orderId ??= scenario.orderIds[connections++ % scenario.orderIds.length];
        return JSON.stringify(pushBody(String(context.orderId)));
      };
    }
    case 'replay': {
      let next = 0;
      return () => scenario.bodies[next++ % scenario.bodies.length]!;
    }
    case 'batch':
      return () =>
        JSON.stringify({ activities: Array.from({ length: scenario.size }, () => pushBody(scenario.orderId)) });
  }
}

async function fire(job: LoadJob, durationMs: number): Promise<LoadFigures> {
  const body = bodyFor(job.scenario);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (job.token) headers.authorization = `Bearer ${job.token}`;
  const options: autocannon.Options = {
    url: job.url,
    connections: job.connections,
    duration: durationMs / 1000,
    requests: [
      {
        method: 'POST',
        headers,
        setupRequest: (request, context) => ({ ...request, body: body(context as Record<string, unknown>) }),
      },
    ],
  };
  // Off the main thread autocannon answers raw histograms; its aggregateResult (README, not in the types) reads them.
  const raw = await autocannon(options);
  const result = (autocannon as unknown as Aggregating).aggregateResult([raw], options);
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result['2xx'],
    failures: result.non2xx + result.errors,
  };
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) {
  parentPort!.on('message', (job: LoadJob) => {
    void (async (): Promise<LoadAnswer> => {
      try {
        const warmupRequests = job.warmupMs > 0 ? (await fire(job, job.warmupMs)).requests : 0;
        return { figures: await fire(job, job.durationMs), warmupRequests };
      } catch (error) {
        return { error: String(error) };
      }
    })().then((answer) => parentPort!.postMessage(answer));
  });
}

/** A worker thread running this module; tsx is registered in it first, since Node 20 workers do not inherit it. */
function startLoadWorker() {
  const code =
    `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(code, { eval: true, workerData: { role: WORKER_ROLE } });
  let failed: Error | null = null;
  worker.on('error', (error) => (failed = error));
  return {
    run(job: LoadJob): Promise<LoadFigures & { warmupRequests: number }> {
      if (failed) return Promise.reject(failed);
      return new Promise((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        const onExit = (code: number) => reject(new Error(`load generator exited with code ${code}`));
        worker.once('error', onError);
        worker.once('exit', onExit);
        worker.once('message', (answer: LoadAnswer) => {
          worker.off('error', onError);
          worker.off('exit', onExit);
          if ('error' in answer) reject(new Error(`load generator: ${answer.error}`));
          else resolve({ ...answer.figures, warmupRequests: answer.warmupRequests });
        });
        worker.postMessage(job);
      });
    },
    stop: () => worker.terminate(),
  };
}

// ---- servers (main thread) ----

/** A bare Fastify instance on its own port: parse JSON, insert the row, answer the short result. */
async function startBareServer(server: TestServer, startCounter: number) {
  const { db } = server.database;
  let counter = startCounter;
  const app = Fastify({ logger: false });
  app.post('/activity', async (request) => {
    const push = request.body as ReturnType<typeof pushBody>;
    const [row] = await db
      .insert(activities)
      .values({
        id: push.id,
        orderId: push.oI,
        counter: ++counter,
        key: push.k,
        type: push.t,
        outputValue: push.oV,
        created: new Date(push.c),
        lastModified: new Date(),
      })
      .returning();
    return { id: row!.id, lm: row!.lastModified.toISOString(), co: row!.counter, mod: row!.modifier };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

/** Fails early with the server's answer when a request of the scenario is refused: nothing to measure then. */
async function probe(url: string, token: string | undefined, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
}

/** Starts the test server on PGlite in memory, or on a fresh database of the PostgreSQL server `databaseUrl`. */
async function startServerOn(databaseUrl: string | undefined) {
  const before = process.env.TEST_DATABASE_URL;
  if (databaseUrl) process.env.TEST_DATABASE_URL = databaseUrl;
  else delete process.env.TEST_DATABASE_URL;
  try {
    return await startTestServer();
  } finally {
    if (before === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = before;
  }
}

export async function measureActivityThroughput(
  options: { databaseUrl?: string; durationMs?: number } = {},
): Promise<ActivityThroughputFigures> {
  const durationMs = options.durationMs ?? 5_000;
  const load = startLoadWorker();
  const server = await startServerOn(options.databaseUrl);
  const databaseName =
    server.database.kind === 'postgres'
      ? String(
          ((await server.database.executeSql('SELECT current_database() AS name')).rows[0] as { name: string }).name,
        )
      : null;
  /** Runs one load, reading what the server's thread and the database's backends spent on it. */
  const measured = async (job: LoadJob): Promise<MeasuredLoad> => {
    const backends =
      databaseName && options.databaseUrl
        ? watchBackends({ serverUrl: options.databaseUrl, name: databaseName })
        : null;
    await backends?.ready;
    const before = threadCost(process.pid);
    const { warmupRequests, ...figures } = await load.run(job);
    const server = costSince(before, threadCost(process.pid));
    return {
      ...figures,
      server,
      databaseCpuMs: backends ? await backends.stop() : null,
      allRequests: figures.requests + warmupRequests,
    };
  };
  try {
    const token = await server.signIn('staff');
    const pushOrders = [];
    for (let i = 0; i < CONNECTIONS; i++) pushOrders.push(await createWagonOrder(server, token));
    const pushOrder = pushOrders[0]!;
    const contentionOrder = await createWagonOrder(server, token);
    const bareOrder = await createWagonOrder(server, token);
    const batchOrder = await createWagonOrder(server, token);
    const bare = await startBareServer(server, bareOrder.lastCounter);
    const job = { connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs };
    const pushUrl = `${server.url}/api/v1/activity`;
    try {
      await probe(`${bare.url}/activity`, undefined, pushBody(bareOrder.id));
      await probe(pushUrl, token, pushBody(pushOrder.id));
      await probe(`${pushUrl}/batch`, token, { activities: [pushBody(batchOrder.id)] });

      const bareFigures = await measured({
        ...job,
        url: `${bare.url}/activity`,
        scenario: { kind: 'single', orderIds: [bareOrder.id] },
      });
      const push = await measured({
        ...job,
        url: pushUrl,
        token,
        scenario: { kind: 'single', orderIds: pushOrders.map((order) => order.id) },
      });
      const contention = await measured({
        ...job,
        url: pushUrl,
        token,
        scenario: { kind: 'single', orderIds: [contentionOrder.id] },
      });
      // The same content under the same id: since issue 16 an id with other content is refused (409).
      const stored = await server.database.db
        .select()
        .from(activities)
        .where(and(eq(activities.orderId, contentionOrder.id), eq(activities.key, KEY)));
      const replay = await measured({
        ...job,
        url: pushUrl,
        token,
        scenario: {
          kind: 'replay',
          bodies: stored.map((row) => {
            const { id, oI, k, t, oV, c } = toServerActivity(row);
            return JSON.stringify({ id, oI, k, t, oV, c });
          }),
        },
      });
      const batch = await measured({
        ...job,
        url: `${pushUrl}/batch`,
        token,
        scenario: { kind: 'batch', orderId: batchOrder.id, size: BATCH_SIZE },
      });
      return {
        database: server.database.kind,
        connections: CONNECTIONS,
        durationMs,
        batchSize: BATCH_SIZE,
        bare: bareFigures,
        push,
        contention,
        replay,
        batch: { ...batch, activitiesPerSecond: batch.requestsPerSecond * BATCH_SIZE },
      };
    } finally {
      await bare.close();
    }
  } finally {
    await server.close();
    await load.stop();
  }
}

/** CPU time per answered request of the server's thread, in ms. */
export const cpuPerRequest = (load: MeasuredLoad) => load.server.cpuMs / Math.max(1, load.allRequests);

/** A rate's figure note: failures, and starvation of the server's thread (both make the rate suspect). */
function loadNote(load: MeasuredLoad): { note?: string } {
  const notes = [
    ...(load.failures > 0 ? [`${load.failures} FAILED requests of ${load.requests + load.failures}`] : []),
    ...(starvedNote(load.server) ? [starvedNote(load.server)!] : []),
  ];
  return notes.length ? { note: notes.join('; ') } : {};
}

export function activityThroughputSection(label: string, figures: ActivityThroughputFigures): Section {
  const { bare, push, contention, replay, batch } = figures;
  const rps = { unit: 'req/s', digits: 0, higherIsBetter: true };
  const ms = { unit: 'ms', digits: 0 };
  const cpu = (name: string, load: MeasuredLoad, baseline: MeasuredLoad, baselineName: string): Figure[] => [
    {
      name: `${name}, server thread CPU per request`,
      value: cpuPerRequest(load),
      unit: 'ms',
      digits: 3,
      baseline: { name: baselineName, value: cpuPerRequest(baseline) },
      note: costNote(load.server),
    },
    ...(load.databaseCpuMs !== null && baseline.databaseCpuMs !== null
      ? [
          {
            name: `${name}, database CPU per request`,
            value: load.databaseCpuMs / Math.max(1, load.allRequests),
            unit: 'ms',
            digits: 3,
            baseline: { name: baselineName, value: baseline.databaseCpuMs / Math.max(1, baseline.allRequests) },
          },
        ]
      : []),
  ];
  return {
    id: `activity-push-${figures.database}`,
    title: `activity push on ${label}, ${figures.connections} connections, ${figures.durationMs / 1000} s each after ${WARMUP_MS / 1000} s warm-up`,
    figures: [
      {
        name: 'POST /activity, new activities, one order per connection',
        value: push.requestsPerSecond,
        ...rps,
        baseline: { name: 'bare Fastify insert', value: bare.requestsPerSecond },
        aim: { text: 'ratio >= 0.5', met: push.requestsPerSecond / bare.requestsPerSecond >= 0.5 },
        ...loadNote(push),
      },
      ...cpu('POST /activity, new activities', push, bare, 'bare Fastify insert'),
      {
        name: 'POST /activity, new activities, every connection on one order (contention)',
        value: contention.requestsPerSecond,
        ...rps,
        baseline: { name: 'one order per connection', value: push.requestsPerSecond },
        ...loadNote(contention),
      },
      {
        name: 'POST /activity, new activities, p50',
        value: push.p50Ms,
        ...ms,
        baseline: { name: 'bare', value: bare.p50Ms },
      },
      {
        name: 'POST /activity, new activities, p99',
        value: push.p99Ms,
        ...ms,
        baseline: { name: 'bare', value: bare.p99Ms },
        aim: { text: 'ratio <= 2x', met: push.p99Ms / bare.p99Ms <= 2 },
      },
      {
        name: 'POST /activity, replayed ids',
        value: replay.requestsPerSecond,
        ...rps,
        baseline: { name: 'new activities', value: push.requestsPerSecond },
        ...loadNote(replay),
      },
      {
        name: 'POST /activity, replayed ids, p99',
        value: replay.p99Ms,
        ...ms,
        baseline: { name: 'new activities', value: push.p99Ms },
      },
      {
        name: `POST /activity/batch of ${figures.batchSize}, activities`,
        value: batch.activitiesPerSecond,
        unit: 'activities/s',
        digits: 0,
        higherIsBetter: true,
        baseline: { name: 'single pushes', value: push.requestsPerSecond },
        aim: { text: 'ratio >= 2', met: batch.activitiesPerSecond / push.requestsPerSecond >= 2 },
        ...loadNote(batch),
      },
      { name: `POST /activity/batch of ${figures.batchSize}, p99`, value: batch.p99Ms, ...ms },
      ...cpu(`POST /activity/batch of ${figures.batchSize}`, batch, push, 'single push'),
    ],
    notes: [
      'baseline: a bare Fastify route on the same database inserting the same row (no token, checks or transaction)',
      `the server's thread is this process's main thread (the load comes from a worker thread)` +
        (figures.database === 'postgres' ? `; database CPU: the backends of the server's fresh database` : ''),
      `the bare route ${costNote(bare.server)}`,
    ],
  };
}
