// A fleet of devices against one server process: every device is a plain Node client with its own keep-alive
// connection, signed in, with its own wagon order, and does what the app's scheduler does every 10 seconds
// (apps/web/src/offline/scheduler.ts and sync.ts): the online check GET /?t=random, POST activity/batch with its
// new changes (1 to 5 here), GET activity/{id}/last, and GET activity/{id}?after=N when behind. Measured: latency
// per call kind, and the server's CPU (/proc/<pid>/stat) and memory (VmRSS), beside the same calls of one device
// against the otherwise idle server (the baseline, run first against the same process). Printed, never asserted.
// The figure of the code is the server's CPU time per exchange (and the devices one core serves at that cost, one
// exchange each per 10 s); the latencies are only a measurement of the code when the server did not wait for a CPU
// longer than it ran (run-queue wait, /proc/<pid>/task/*/schedstat), and are marked starved otherwise. On
// PostgreSQL the database's own CPU (the backends serving the fleet's database) is given beside it.
import type { Figure, Section } from './figures.ts';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { attributeValue } from '@vers/domain';
import { E2E_PASSWORD, startProduct } from '../../e2e/support/server.ts';
import { createTestDatabase } from '../../apps/server/src/test/server.ts';
import {
  type ProcessCost,
  costNote,
  costSince,
  cpuMs,
  processCost,
  starvedNote,
  watchBackends,
} from './process-time.ts';
import { TEXT_KEYS as KEYS } from './wagon-keys.ts';

/** The scheduler's period (SYNC_INTERVAL_MS of apps/web/src/offline/scheduler.ts). */
const SYNC_INTERVAL_MS = 10_000;
/** The baseline device's exchanges, one after another with a short pause: enough samples for a p99. */
const BASELINE_TICKS = 60;
const BASELINE_PAUSE_MS = 250;
const WARMUP_TICKS = 20;
const SAMPLE_MS = 500;
/** Sign-ins at once while the fleet is set up (not measured with the fleet). */
const SETUP_CONCURRENCY = 4;
/** Demo users with the order roles (apps/server/src/seed/demo.ts), of both workshops; devices share them. */
const USERS = ['staff', 'werkadmin', 'wagonqa', 'wheelsetqa', 'staff2', 'werkadmin2'];

export const CALL_KINDS = ['online check', 'batch', 'last', 'pull'] as const;
export type CallKind = (typeof CALL_KINDS)[number];

// ---- the server, started here so that its pid is known ----

interface FleetServer {
  url: string;
  pid: number;
  /** The database watched for its backends' CPU: on PostgreSQL, the fresh database the server runs on. */
  database: { serverUrl: string; name: string } | null;
  stop(): Promise<void>;
}

/**
 * The product's server process (its pid is what the CPU and memory are read from), as e2e/support/server.ts starts
 * it: one Node process with the built web app, on PGlite in its own data folder, or, given `databaseUrl`, on a
 * fresh database of that PostgreSQL server, dropped afterwards.
 */
async function startServer(databaseUrl: string | undefined): Promise<FleetServer> {
  const created = await createTestDatabase(databaseUrl);
  if (!created) return { ...(await startProduct()), database: null };
  try {
    const product = await startProduct({ DATABASE_URL: created.url });
    return {
      url: product.url,
      pid: product.pid,
      database: { serverUrl: databaseUrl!, name: new URL(created.url).pathname.slice(1) },
      async stop() {
        await product.stop();
        await created.drop();
      },
    };
  } catch (error) {
    await created.drop();
    throw error;
  }
}

// ---- the server's CPU and memory from /proc ----

/** VmRSS of the process, in MB. */
function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

export interface ServerUse {
  /** The server process's CPU time and run-queue wait over the window. */
  cost: ProcessCost;
  /** CPU time of the database's backends over the window (PostgreSQL only). */
  databaseCpuMs: number | null;
  /** Average CPU over the window, % of one core. */
  cpuPercent: number;
  /** Highest CPU over one sample interval (`SAMPLE_MS`), % of one core. */
  cpuPeakPercent: number;
  rssPeakMb: number;
  rssEndMb: number;
}

/** Samples the process (and the database's backends) every `SAMPLE_MS` until stopped. */
async function watchServer(server: FleetServer) {
  const { pid } = server;
  const backends = server.database ? watchBackends(server.database) : null;
  await backends?.ready;
  const startCost = processCost(pid);
  const startedAt = performance.now();
  const startCpu = cpuMs(pid);
  let lastAt = startedAt;
  let lastCpu = startCpu;
  let cpuPeak = 0;
  let rssPeak = rssMb(pid);
  const sample = () => {
    const at = performance.now();
    const cpu = cpuMs(pid);
    if (at - lastAt >= SAMPLE_MS / 2) cpuPeak = Math.max(cpuPeak, ((cpu - lastCpu) / (at - lastAt)) * 100);
    lastAt = at;
    lastCpu = cpu;
    rssPeak = Math.max(rssPeak, rssMb(pid));
    return { at, cpu };
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    async stop(): Promise<ServerUse> {
      clearInterval(timer);
      const { at, cpu } = sample();
      const cost = costSince(startCost, processCost(pid));
      const rssEndMb = rssMb(pid);
      return {
        cost,
        databaseCpuMs: backends ? await backends.stop() : null,
        cpuPercent: ((cpu - startCpu) / (at - startedAt)) * 100,
        cpuPeakPercent: cpuPeak,
        rssPeakMb: Math.max(rssPeak, rssEndMb),
        rssEndMb,
      };
    },
  };
}

// ---- a device ----

interface Answer {
  status: number;
  text: string;
}

/** One request over the device's own connection; the body is read in full (as fetch with `await res.json()`). */
function send(agent: http.Agent, base: URL, method: string, url: string, token?: string, body?: unknown) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: url,
        agent,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** Latencies (ms) and failures per call kind, plus whole exchanges. */
class Recorder {
  readonly times = new Map<CallKind, number[]>(CALL_KINDS.map((kind) => [kind, []]));
  readonly failures = new Map<CallKind, number>(CALL_KINDS.map((kind) => [kind, 0]));
  readonly exchanges: number[] = [];
  /** Ticks that found the previous exchange still running and skipped, as the scheduler does. */
  skipped = 0;
  /** Ticks that ran an exchange (to its end or to a failed call). */
  ran = 0;
  firstFailure: string | null = null;

  record(kind: CallKind, ms: number, ok: boolean, detail: string) {
    this.times.get(kind)!.push(ms);
    if (!ok) {
      this.failures.set(kind, this.failures.get(kind)! + 1);
      this.firstFailure ??= `${kind}: ${detail}`;
    }
  }
}

class Device {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  /** Server counters this device holds for its order (the app's rows with a counter). */
  private readonly counters = new Set<number>();
  private changes = 0;
  private running = false;

  constructor(
    private readonly base: URL,
    readonly userName: string,
    private token = '',
    private orderId = '',
  ) {}

  private async call(recorder: Recorder, kind: CallKind, method: string, url: string, body?: unknown) {
    const started = performance.now();
    try {
      const answer = await send(this.agent, this.base, method, url, this.token, body);
      const ok = answer.status >= 200 && answer.status <= 299;
      recorder.record(kind, performance.now() - started, ok, `${answer.status} ${answer.text.slice(0, 200)}`);
      return ok ? answer : null;
    } catch (error) {
      recorder.record(kind, performance.now() - started, false, String(error));
      return null;
    }
  }

  async signIn(): Promise<void> {
    const answer = await send(this.agent, this.base, 'POST', '/api/v1/auth/signin', undefined, {
      userName: this.userName,
      password: E2E_PASSWORD,
    });
    if (answer.status !== 200) throw new Error(`sign-in of ${this.userName}: ${answer.status} ${answer.text}`);
    this.token = (JSON.parse(answer.text) as { token: string }).token;
  }

  async createOrder(): Promise<void> {
    const answer = await send(this.agent, this.base, 'POST', '/api/v1/orders', this.token, {
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [{ number: '' }, { number: '' }, { number: '' }, { number: '' }] },
    });
    if (answer.status !== 200) throw new Error(`order of ${this.userName}: ${answer.status} ${answer.text}`);
    this.orderId = (JSON.parse(answer.text) as { id: string }).id;
  }

  /** The highest counter up to which the device has every activity (the app's contiguousCounter). */
  private known(): number {
    let known = 0;
    while (this.counters.has(known + 1)) known += 1;
    return known;
  }

  /** One scheduler tick: online check, push, then pull when behind. Skipped while the previous one runs. */
  async tick(recorder: Recorder): Promise<void> {
    if (this.running) {
      recorder.skipped += 1;
      return;
    }
    this.running = true;
    recorder.ran += 1;
    const started = performance.now();
    try {
      if (!(await this.call(recorder, 'online check', 'GET', `/?t=${Math.random().toString(36).slice(2)}`))) return;
      const now = new Date();
      const activities = Array.from({ length: 1 + Math.floor(Math.random() * 5) }, () => ({
        id: randomUUID(),
        oI: this.orderId,
        k: KEYS[this.changes % KEYS.length],
        t: 'XML_MODIFICATION',
        oV: JSON.stringify(attributeValue(`change ${++this.changes}`, now)),
        c: now.toISOString(),
      }));
      const pushed = await this.call(recorder, 'batch', 'POST', '/api/v1/activity/batch', { activities });
      if (!pushed) return;
      for (const result of JSON.parse(pushed.text) as { co: number }[]) this.counters.add(result.co);
      const last = await this.call(recorder, 'last', 'GET', `/api/v1/activity/${this.orderId}/last`);
      if (!last) return;
      const known = this.known();
      if ((JSON.parse(last.text) as { last: number }).last > known) {
        const pulled = await this.call(recorder, 'pull', 'GET', `/api/v1/activity/${this.orderId}?after=${known}`);
        if (pulled) for (const activity of JSON.parse(pulled.text) as { co: number }[]) this.counters.add(activity.co);
      }
      recorder.exchanges.push(performance.now() - started);
    } finally {
      this.running = false;
    }
  }

  close() {
    this.agent.destroy();
  }
}

/** Runs `work` over the items, `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** Every device ticks every `intervalMs`, device i first at i/n of the interval, until `durationMs` are over. */
async function runFleet(devices: readonly Device[], recorder: Recorder, durationMs: number, intervalMs: number) {
  const started = performance.now();
  const running: Promise<void>[] = [];
  const timers: ReturnType<typeof setTimeout>[] = [];
  devices.forEach((device, i) => {
    const schedule = (at: number) => {
      if (at >= durationMs) return;
      timers.push(
        setTimeout(
          () => {
            running.push(device.tick(recorder));
            schedule(at + intervalMs);
          },
          Math.max(0, started + at - performance.now()),
        ),
      );
    };
    schedule((i * intervalMs) / devices.length);
  });
  await new Promise((r) => setTimeout(r, durationMs));
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(running);
}

// ---- figures ----

export interface CallFigures {
  count: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
}

export interface RunFigures {
  devices: number;
  durationMs: number;
  calls: Record<CallKind, CallFigures>;
  all: CallFigures;
  /** One whole tick (online check to the end of the pull), exchanges that reached the end. */
  exchange: CallFigures;
  /** Ticks that ran an exchange, whether or not it reached its end. */
  exchangesRun: number;
  skippedTicks: number;
  firstFailure: string | null;
  server: ServerUse;
}

export interface FleetFigures {
  database: 'pglite' | 'postgres';
  pid: number;
  intervalMs: number;
  /** Setting the fleet up: signing in every device and creating its order. */
  setupMs: number;
  baseline: RunFigures;
  fleet: RunFigures;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

function figuresOf(times: number[], failures: number): CallFigures {
  const sorted = [...times].sort((a, b) => a - b);
  return { count: times.length, failures, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

function runFigures(recorder: Recorder, devices: number, durationMs: number, server: ServerUse): RunFigures {
  const calls = Object.fromEntries(
    CALL_KINDS.map((kind) => [kind, figuresOf(recorder.times.get(kind)!, recorder.failures.get(kind)!)]),
  ) as Record<CallKind, CallFigures>;
  return {
    devices,
    durationMs,
    calls,
    all: figuresOf(
      CALL_KINDS.flatMap((kind) => recorder.times.get(kind)!),
      CALL_KINDS.reduce((sum, kind) => sum + recorder.failures.get(kind)!, 0),
    ),
    exchange: figuresOf(recorder.exchanges, 0),
    exchangesRun: recorder.ran,
    skippedTicks: recorder.skipped,
    firstFailure: recorder.firstFailure,
    server,
  };
}

export interface FleetOptions {
  /** Devices of the fleet, 200 unless told. */
  devices?: number;
  /** How long the fleet runs, 60 s unless told. */
  durationMs?: number;
  /** The devices' period, the scheduler's 10 s unless told. */
  intervalMs?: number;
  /** A PostgreSQL server: the product runs on a fresh database of it. PGlite in a data folder of its own unless told. */
  databaseUrl?: string;
  /** Called with the server's pid as the fleet's measured window begins (e.g. to start a profiler there). */
  onFleetStart?: (pid: number) => void;
}

export async function measureFleet(options: FleetOptions = {}): Promise<FleetFigures> {
  const count = options.devices ?? 200;
  const durationMs = options.durationMs ?? 60_000;
  const intervalMs = options.intervalMs ?? SYNC_INTERVAL_MS;
  const server = await startServer(options.databaseUrl);
  const base = new URL(server.url);
  const all: Device[] = [];
  try {
    // Warm-up, not measured: a first device's exchanges, so that the baseline does not pay for the server's
    // first calls (JIT, caches).
    const warmUp = new Device(base, USERS[0]!);
    all.push(warmUp);
    await warmUp.signIn();
    await warmUp.createOrder();
    for (let i = 0; i < WARMUP_TICKS; i++) await warmUp.tick(new Recorder());
    warmUp.close();

    // The baseline: one device, its exchanges one after another against the otherwise idle server.
    const single = new Device(base, USERS[0]!);
    all.push(single);
    await single.signIn();
    await single.createOrder();
    const baselineRecorder = new Recorder();
    const baselineStarted = performance.now();
    const baselineWatch = await watchServer(server);
    for (let i = 0; i < BASELINE_TICKS; i++) {
      await single.tick(baselineRecorder);
      await new Promise((r) => setTimeout(r, BASELINE_PAUSE_MS));
    }
    const baselineUse = await baselineWatch.stop();
    const baselineMs = performance.now() - baselineStarted;
    single.close();

    const setupStarted = performance.now();
    const devices = Array.from({ length: count }, (_, i) => new Device(base, USERS[i % USERS.length]!));
    all.push(...devices);
    await eachLimited(devices, SETUP_CONCURRENCY, (device) => device.signIn());
    // One at a time: order numbers are handed out per workshop.
    for (const device of devices) await device.createOrder();
    const setupMs = performance.now() - setupStarted;

    const recorder = new Recorder();
    const watch = await watchServer(server);
    options.onFleetStart?.(server.pid);
    await runFleet(devices, recorder, durationMs, intervalMs);
    const use = await watch.stop();
    return {
      database: server.database ? 'postgres' : 'pglite',
      pid: server.pid,
      intervalMs,
      setupMs,
      baseline: runFigures(baselineRecorder, 1, baselineMs, baselineUse),
      fleet: runFigures(recorder, count, durationMs, use),
    };
  } finally {
    for (const device of all) device.close();
    await server.stop();
  }
}

const LABELS: Record<CallKind, string> = {
  'online check': 'online check GET /?t=',
  batch: 'POST activity/batch (1-5)',
  last: 'GET activity/{id}/last',
  pull: 'GET activity/{id}?after=N',
};

/** The issue's aim (issue 19): one core serves at least this many devices, one exchange each per 10 s. */
export const DEVICES_PER_CORE_AIM = 2_000;

/** Server CPU time per exchange that ran, in ms. */
export const cpuPerExchange = (r: RunFigures) => r.server.cost.cpuMs / Math.max(1, r.exchangesRun);

/** Devices one core serves at the run's CPU per exchange, each exchanging once per `intervalMs`. */
export const devicesPerCore = (r: RunFigures, intervalMs: number) => intervalMs / cpuPerExchange(r);

export function fleetSection(f: FleetFigures): Section {
  const { baseline: b, fleet: n } = f;
  const onPostgres = f.database === 'postgres';
  const starved = starvedNote(n.server.cost);
  const cpuFigures = (): Figure[] => {
    const perCore = devicesPerCore(n, f.intervalMs);
    const result: Figure[] = [
      {
        name: 'server CPU time per exchange',
        value: cpuPerExchange(n),
        unit: 'ms',
        digits: 2,
        baseline: { name: '1 device, idle server', value: cpuPerExchange(b) },
        note: `${n.exchangesRun} exchanges; fleet ${costNote(n.server.cost)}; 1 device ${costNote(b.server.cost)}`,
      },
      {
        name: `devices per CPU core (server process), one exchange each per ${f.intervalMs / 1000} s`,
        value: perCore,
        unit: 'devices',
        digits: 0,
        higherIsBetter: true,
        baseline: { name: '1 device, idle server', value: devicesPerCore(b, f.intervalMs) },
        aim: { text: `>= ${DEVICES_PER_CORE_AIM.toLocaleString('en')}`, met: perCore >= DEVICES_PER_CORE_AIM },
      },
    ];
    if (onPostgres && n.server.databaseCpuMs !== null && b.server.databaseCpuMs !== null) {
      const dbPer = (r: RunFigures) => r.server.databaseCpuMs! / Math.max(1, r.exchangesRun);
      result.push(
        {
          name: 'database CPU time per exchange (PostgreSQL backends)',
          value: dbPer(n),
          unit: 'ms',
          digits: 2,
          baseline: { name: '1 device, idle server', value: dbPer(b) },
        },
        {
          name: `devices per CPU core, server and database together, one exchange each per ${f.intervalMs / 1000} s`,
          value: f.intervalMs / (cpuPerExchange(n) + dbPer(n)),
          unit: 'devices',
          digits: 0,
          higherIsBetter: true,
          baseline: { name: '1 device, idle server', value: f.intervalMs / (cpuPerExchange(b) + dbPer(b)) },
        },
      );
    }
    return result;
  };
  const figures: Section['figures'] = cpuFigures();
  const latency = (label: string, fleet: CallFigures, single: CallFigures) => {
    const note =
      `${fleet.count} calls${fleet.failures ? `, ${fleet.failures} FAILED` : ''}` + (starved ? `; ${starved}` : '');
    for (const [quantile, key] of [
      ['p50', 'p50Ms'],
      ['p99', 'p99Ms'],
    ] as const) {
      figures.push({
        name: `${label}, ${quantile}`,
        value: fleet[key],
        unit: 'ms',
        digits: 1,
        baseline: { name: '1 device, idle server', value: single[key] },
        ...(quantile === 'p50' ? { note } : starved ? { note: starved } : {}),
      });
    }
  };
  for (const kind of CALL_KINDS) latency(LABELS[kind], n.calls[kind], b.calls[kind]);
  latency('all calls', n.all, b.all);
  latency('whole exchange', n.exchange, b.exchange);
  const rate = (r: RunFigures) => (r.all.count * 1000) / r.durationMs;
  figures.push(
    {
      name: 'call rate',
      value: rate(n),
      unit: 'calls/s',
      digits: 1,
      higherIsBetter: true,
      baseline: { name: '1 device', value: rate(b) },
    },
    {
      name: 'server CPU, average (one core = 100)',
      value: n.server.cpuPercent,
      unit: '%',
      digits: 1,
      baseline: { name: '1 device', value: b.server.cpuPercent },
    },
    {
      name: 'server CPU, peak (one core = 100)',
      value: n.server.cpuPeakPercent,
      unit: '%',
      digits: 0,
      baseline: { name: '1 device', value: b.server.cpuPeakPercent },
    },
    {
      name: 'server memory (VmRSS), peak',
      value: n.server.rssPeakMb,
      unit: 'MB',
      digits: 0,
      baseline: { name: '1 device', value: b.server.rssPeakMb },
    },
    { name: 'server memory (VmRSS), at end', value: n.server.rssEndMb, unit: 'MB', digits: 0 },
  );
  const notes = [
    `${onPostgres ? 'PostgreSQL (a fresh database)' : 'PGlite in the server process'}; ` +
      `one exchange per device every ${f.intervalMs / 1000} s, staggered; baseline: 1 device, ${BASELINE_TICKS} ticks ` +
      `against the idle server; set-up ${(f.setupMs / 1000).toFixed(1)} s for ${n.devices} sign-ins and orders; ` +
      `${n.exchange.count} complete ticks`,
    'the figure of the code is the CPU time per exchange; latencies are only a measurement of the code when the ' +
      'server waited for a CPU less than it ran',
  ];
  if (starved) notes.push(`fleet run ${starved}`);
  if (n.skippedTicks > 0) notes.push(`${n.skippedTicks} ticks skipped: the device's previous exchange still ran`);
  for (const [label, run] of [
    ['baseline', b],
    ['fleet', n],
  ] as const) {
    if (run.firstFailure) notes.push(`first failure (${label}): ${run.firstFailure}`);
  }
  return {
    id: onPostgres ? 'fleet-postgres' : 'fleet',
    title:
      `fleet of ${n.devices} devices against one server process` +
      `${onPostgres ? ' on PostgreSQL' : ''}, ${n.durationMs / 1000} s`,
    figures,
    notes,
  };
}
