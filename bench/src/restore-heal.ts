// Healing after a restored backup (issue 16): three devices, each with its own wagon order, had 1,000 changes
// acknowledged after the backup and hold 100 more unsent when the server comes back from the backup. The devices run
// the app's own sync code (apps/web/src/offline: sync.ts, restore.ts) over fake-indexeddb in this process, against
// the real server (also in this process) on PGlite or PostgreSQL. Measured: from the restored server's first answer
// until every device's unsent and re-sent changes are acknowledged, wall time and this process's CPU time; the
// baseline is the same three devices sending the same number of changes to the server in the ordinary way, in the
// same run. Printed, never asserted.
import 'fake-indexeddb/auto';
import '../../apps/web/src/offline/test-node-globals.ts';
import { type CreateOrderRequest, orderSchema, signInResponseSchema } from '@vers/domain';
import { DEMO_PASSWORD } from '../../apps/server/src/test/server.ts';
import { startRestorableServer, type RestorableServer } from '../../apps/server/src/test/restorable.ts';
import { removeWindowStub } from '../../apps/web/src/offline/test-node-globals.ts';
import { call, setApiOrigin } from '../../apps/web/src/app/api.ts';
import { sessionStore } from '../../apps/web/src/app/session.ts';
import { recordChanges } from '../../apps/web/src/offline/order-results.ts';
import { exchangeOrder, healIfRestored } from '../../apps/web/src/offline/restore.ts';
import { pushWaitingOrders } from '../../apps/web/src/offline/sync.ts';
import { VersDb } from '../../apps/web/src/offline/versdb.ts';
import type { Section } from './figures.ts';
import { TEXT_KEYS as KEYS } from './wagon-keys.ts';

const DEVICES = 3;
const ACKNOWLEDGED = 1000;
const UNSENT = 100;

export interface RestoreHealFigures {
  database: string;
  /** Changes the server lacked after the restore, over all devices (acknowledged before, lost with the backup). */
  lost: number;
  /** From the restored server's first answer until every device's changes are acknowledged. */
  healWallMs: number;
  healCpuMs: number;
  /** The same devices sending the same number of changes to a server that lost nothing. */
  baselineWallMs: number;
  baselineCpuMs: number;
  /** Changes on the server afterwards that no device holds, or ids there twice: must be 0. */
  unexpected: number;
}

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

function orderRequest(): CreateOrderRequest & { id: string } {
  return {
    id: crypto.randomUUID(),
    type: 'WAGON',
    contractor: 'DBC',
    externalOrderNumber: 'BENCH-RESTORE',
    maintenanceNumber: '21 81 2471 217-3',
    wagon: { number: '21 81 2471 217-3', wheelsetsOutgoing: [{ number: '' }, { number: '' }] },
  };
}

/** `count` field changes of one order, recorded as the editor records them (unsent, in IndexedDB). */
async function record(db: VersDb, orderId: string, count: number, tag: string) {
  const changes = Array.from({ length: count }, (_, i) => ({
    orderId,
    key: KEYS[i % KEYS.length]!,
    value: `${tag} ${i}`,
    seen: 0,
  }));
  for (let i = 0; i < changes.length; i += 100) await recordChanges(db, changes.slice(i, i + 100));
}

/** What the scheduler does until nothing waits on the device. */
async function exchangeUntilSent(db: VersDb, orderId: string) {
  for (let round = 0; round < 20; round += 1) {
    await healIfRestored(db);
    await pushWaitingOrders(db);
    await exchangeOrder(db, orderId);
    if ((await db.orderResults.where('sent').equals(0).count()) === 0) return;
  }
  throw new Error('changes still unsent after 20 exchanges');
}

async function devicesWithOrders(server: RestorableServer, tag: string) {
  setApiOrigin(server.server.url);
  const devices = Array.from({ length: DEVICES }, () => new VersDb(`versdb-bench-${tag}-${crypto.randomUUID()}`));
  const orders: string[] = [];
  for (const db of devices) {
    const request = orderRequest();
    await call('orders', orderSchema, { method: 'POST', body: request });
    orders.push(request.id);
    await exchangeUntilSent(db, request.id);
  }
  return { devices, orders };
}

async function signIn(server: RestorableServer) {
  const res = await server.server.request('POST', '/api/v1/auth/signin', {
    body: { userName: 'staff', password: DEMO_PASSWORD },
  });
  sessionStore.set(signInResponseSchema.parse(res.body));
}

async function measure(postgresUrl: string | undefined): Promise<RestoreHealFigures> {
  // Baseline: the same work against a server that lost nothing.
  const plain = await startRestorableServer(postgresUrl);
  await signIn(plain);
  const base = await devicesWithOrders(plain, 'base');
  for (const [i, db] of base.devices.entries()) await record(db, base.orders[i]!, ACKNOWLEDGED + UNSENT, 'base');
  let wall = performance.now();
  let cpu = cpuMs();
  await Promise.all(base.devices.map((db, i) => exchangeUntilSent(db, base.orders[i]!)));
  const baselineWallMs = performance.now() - wall;
  const baselineCpuMs = cpuMs() - cpu;
  await Promise.all(base.devices.map((db) => db.delete()));
  await plain.close();

  const server = await startRestorableServer(postgresUrl);
  try {
    await signIn(server);
    const { devices, orders } = await devicesWithOrders(server, 'heal');
    await server.backup();
    setApiOrigin(server.server.url);
    for (const [i, db] of devices.entries()) await record(db, orders[i]!, ACKNOWLEDGED, 'acknowledged');
    await Promise.all(devices.map((db, i) => exchangeUntilSent(db, orders[i]!)));
    for (const [i, db] of devices.entries()) await record(db, orders[i]!, UNSENT, 'unsent');

    await server.restore();
    setApiOrigin(server.server.url);
    await server.server.request('GET', '/api/v1/version/current');
    wall = performance.now();
    cpu = cpuMs();
    await Promise.all(devices.map((db, i) => exchangeUntilSent(db, orders[i]!)));
    const healWallMs = performance.now() - wall;
    const healCpuMs = cpuMs() - cpu;

    let unexpected = 0;
    for (const [i, db] of devices.entries()) {
      const log = await server.server.request<{ id: string }[]>('GET', `/api/v1/activity/${orders[i]}`, {
        token: sessionStore.get()!.token,
      });
      const ids = log.body.map((a) => a.id);
      const held = new Set((await db.orderResults.where('orderId').equals(orders[i]!).toArray()).map((r) => r.id));
      unexpected += ids.length - new Set(ids).size + ids.filter((id) => !held.has(id)).length;
      unexpected += [...held].filter((id) => !ids.includes(id)).length;
    }
    await Promise.all(devices.map((db) => db.delete()));
    return {
      database: server.kind,
      lost: DEVICES * ACKNOWLEDGED,
      healWallMs,
      healCpuMs,
      baselineWallMs,
      baselineCpuMs,
      unexpected,
    };
  } finally {
    await server.close();
  }
}

export async function measureRestoreHeal(postgresUrl?: string): Promise<RestoreHealFigures> {
  removeWindowStub();
  return measure(postgresUrl);
}

export function restoreHealSection(figures: RestoreHealFigures): Section {
  const label = figures.database === 'postgres' ? 'PostgreSQL' : 'PGlite';
  return {
    id: `restore-heal-${figures.database}`,
    title: `healing a restored server (${label})`,
    figures: [
      {
        name: `${DEVICES} devices: lost and unsent changes acknowledged again, wall`,
        value: figures.healWallMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'the same changes sent to a server that lost nothing', value: figures.baselineWallMs },
      },
      {
        name: `${DEVICES} devices: lost and unsent changes acknowledged again, CPU of the process`,
        value: figures.healCpuMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'the same changes sent to a server that lost nothing', value: figures.baselineCpuMs },
      },
      { name: 'changes the server lacked, or held twice, afterwards', value: figures.unexpected, unit: '', digits: 0 },
    ],
    notes: [
      `${DEVICES} devices, one wagon order each; per device ${ACKNOWLEDGED} changes acknowledged after the backup ` +
        `(${figures.lost} lost in all) and ${UNSENT} unsent at the restore; devices, their IndexedDB ` +
        '(fake-indexeddb) and the server share this process, so CPU is theirs together',
    ],
  };
}
