// The order list of a workshop of 200, 2,000 and 20,000 orders (issue 25): the time from opening the list to its first
// rows, the bytes the list's calls transfer on a first visit and on a later one with nothing changed, the server's CPU
// per list request (beside the spec's whole-list `GET orders`), the search online and offline, and the device's
// storage. Each size runs on a product of its own, whose data folder is filled past the API (one INSERT), since
// 20,000 orders through `POST orders` would take minutes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Page, Request } from 'playwright-core';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { launchBrowser, signedInPage } from '../../e2e/support/browser.ts';
import { E2E_PASSWORD, type RunningProduct, startProduct } from '../../e2e/support/server.ts';
import type { Figure, Section } from './figures.ts';
import { costNote, costSince, processCost } from './process-time.ts';

const SIZES = [200, 2_000, 20_000] as const;
/** A workshop repairs about this many wagons and wheelsets a year: the orders span SIZE / this many years. */
const ORDERS_PER_YEAR = 2_000;
/** Orders still open (the newest ones). */
const OPEN_ORDERS = 60;
const VISITS = 3;
const SERVER_REQUESTS = 40;
const VIEWPORT = { width: 1280, height: 800 };

export interface OrderListFigures {
  size: number;
  /** Median ms from navigation start until the first row is in the page, first visits of fresh profiles. */
  firstRowsMs: number;
  firstVisitBytes: number;
  laterVisitBytes: number;
  /** Orders the device keeps after the first visit, and the IndexedDB bytes it uses. */
  keptOrders: number;
  deviceBytes: number | null;
  pageCpuMs: number;
  changesCpuMs: number;
  wholeListCpuMs: number;
  wholeListBytes: number;
  cpuNote: string;
  searchOnlineMs: number;
  searchOfflineMs: number;
}

/** Fills the staff's workshop with `size` orders as ten years of a workshop look: most done, the newest open. */
export async function seedForBench(dataDir: string, size: number): Promise<void> {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  try {
    const years = size / ORDERS_PER_YEAR;
    const number = (value: number) => sql.raw(String(value));
    const spacing = number((years * 365 * 86_400) / size);
    await database.db.execute(sql`
      WITH w AS (SELECT workshop_id AS id FROM users WHERE username = 'staff'),
      made AS (
        INSERT INTO orders (id, workshop_id, type, number, external_order_number, maintenance_number, contractor,
          status, created, last_modified, last_counter)
        SELECT gen_random_uuid(), w.id, CASE WHEN i % 3 = 0 THEN 'WHEELSET' ELSE 'WAGON' END,
          'B' || lpad(i::text, 6, '0'), 'EXT-' || i, lpad((318066000000 + i * 7)::text, 12, '0'),
          (ARRAY['DBC', 'RCA', 'SBB', 'OBB'])[1 + i % 4],
          CASE WHEN i > ${number(size - OPEN_ORDERS)} THEN 'IN_WORK' ELSE 'DONE_ARCHIVED' END,
          now() - make_interval(secs => (${number(size)} - i) * ${spacing}),
          least(now(), now() - make_interval(secs => (${number(size)} - i) * ${spacing}) + interval '2 days'),
          10
        FROM generate_series(1, ${number(size)}) AS i, w
        RETURNING id, type, maintenance_number)
      INSERT INTO order_search_numbers (order_id, kind, number)
        SELECT made.id, 'WHEELSET', lpad((400000000000 + (random() * 99999999999)::bigint)::text, 12, '0')
        FROM made, generate_series(1, 4) WHERE made.type = 'WAGON'
        ON CONFLICT DO NOTHING`);
  } finally {
    await database.close();
  }
}

/** Sums the bytes of the API calls the page makes while `action` runs (headers and bodies as received). */
async function apiBytesDuring(page: Page, action: () => Promise<void>): Promise<number> {
  const pending: Promise<number>[] = [];
  const onFinished = (request: Request) => {
    if (!request.url().includes('/api/v1/')) return;
    pending.push(
      request
        .sizes()
        .then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize)
        .catch(() => 0),
    );
  };
  page.on('requestfinished', onFinished);
  try {
    await action();
  } finally {
    page.off('requestfinished', onFinished);
  }
  return (await Promise.all(pending)).reduce((sum, bytes) => sum + bytes, 0);
}

/** Opens the list and waits until its first row is in the page and the device has taken the server's changes. */
async function visitList(page: Page): Promise<number> {
  await page.goto('/orders');
  await page.waitForFunction(() => document.querySelector('[data-testid^="order-row-"]') !== null, null, {
    polling: 'raf',
    timeout: 120_000,
  });
  const firstRows = await page.evaluate(() => performance.now());
  await page.locator('[data-testid="orders-table"][data-kept="synced"]').waitFor({ timeout: 120_000 });
  return firstRows;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function token(product: RunningProduct): Promise<string> {
  const res = await fetch(`${product.url}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'staff', password: E2E_PASSWORD }),
  });
  return ((await res.json()) as { token: string }).token;
}

/** The server process's CPU per request of `path` over SERVER_REQUESTS sequential requests, and the answer's size. */
async function serverCost(product: RunningProduct, bearer: string, path: string) {
  const get = async () => {
    const res = await fetch(`${product.url}/api/v1/${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    return (await res.arrayBuffer()).byteLength;
  };
  await get(); // warm
  const before = processCost(product.pid);
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < SERVER_REQUESTS; i++) bytes = await get();
  const wallMs = (performance.now() - started) / SERVER_REQUESTS;
  const cost = costSince(before, processCost(product.pid));
  return { cpuMs: cost.cpuMs / SERVER_REQUESTS, wallMs, bytes, cost };
}

/** The device's search over its index, as the app's offline list asks it (`*searchKeys`, a prefix range). */
function searchOnDevice(page: Page, needle: string): Promise<{ ms: number; found: number }> {
  return page.evaluate(
    (needle) =>
      new Promise<{ ms: number; found: number }>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const started = performance.now();
          const index = open.result.transaction('orders').objectStore('orders').index('searchKeys');
          const request = index.getAll(IDBKeyRange.bound(needle, `${needle}\uffff`));
          request.onsuccess = () => {
            const rows = new Map((request.result as { id: string }[]).map((row) => [row.id, row]));
            open.result.close();
            resolve({ ms: performance.now() - started, found: rows.size });
          };
          request.onerror = () => reject(request.error);
        };
      }),
    needle,
  );
}

async function measureSize(browser: Browser, size: number): Promise<OrderListFigures> {
  // A data folder of this benchmark's own (startProduct keeps a folder it was given): the first start makes the
  // demo users, the orders go in while no server holds the folder, the second start serves them.
  const dataDir = mkdtempSync(path.join(tmpdir(), `vers-bench-list-${size}-`));
  const seeded = await startProduct({}, { dataDir });
  await seeded.stop();
  await seedForBench(dataDir, size);
  const product = await startProduct({}, { dataDir });
  try {
    const firstRows: number[] = [];
    const firstBytes: number[] = [];
    let laterVisitBytes = NaN;
    let keptOrders = 0;
    let deviceBytes: number | null = null;
    let searchOfflineMs = NaN;
    for (let visit = 0; visit < VISITS; visit++) {
      const context = await browser.newContext({ baseURL: product.url, viewport: VIEWPORT });
      try {
        const page = await signedInPage(context, 'staff');
        let shown = NaN;
        firstBytes.push(
          await apiBytesDuring(page, async () => {
            shown = await visitList(page);
          }),
        );
        firstRows.push(shown);
        if (visit === 0) {
          await page.goto('/profile');
          laterVisitBytes = await apiBytesDuring(page, async () => {
            await visitList(page);
          });
          keptOrders = await page.evaluate(
            () =>
              new Promise<number>((resolve, reject) => {
                const open = indexedDB.open('versdb');
                open.onerror = () => reject(open.error);
                open.onsuccess = () => {
                  const count = open.result.transaction('orders').objectStore('orders').count();
                  count.onsuccess = () => {
                    open.result.close();
                    resolve(count.result);
                  };
                };
              }),
          );
          deviceBytes = await page.evaluate(async () => {
            const estimate = (await navigator.storage.estimate()) as StorageEstimate & {
              usageDetails?: { indexedDB?: number };
            };
            return estimate.usageDetails?.indexedDB ?? null;
          });
          const searches = [];
          for (const needle of ['8066', '0661', '4000', '31806600'])
            searches.push((await searchOnDevice(page, needle)).ms);
          searchOfflineMs = median(searches);
        }
      } finally {
        await context.close();
      }
    }
    const bearer = await token(product);
    const pageCost = await serverCost(product, bearer, 'orders/page?offset=0&limit=10&sort=created&direction=desc');
    const changes = await fetch(`${product.url}/api/v1/orders/changes`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    let answer = (await changes.json()) as { more: boolean; next: string };
    while (answer.more) {
      const res = await fetch(`${product.url}/api/v1/orders/changes?page=${encodeURIComponent(answer.next)}`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      answer = (await res.json()) as { more: boolean; next: string };
    }
    const changesCost = await serverCost(product, bearer, `orders/changes?cursor=${encodeURIComponent(answer.next)}`);
    const wholeList = await serverCost(product, bearer, 'orders');
    const searches = [];
    for (const needle of ['8066', '0661', '4000', '31806600']) {
      searches.push((await serverCost(product, bearer, `orders/page?search=${needle}&limit=10`)).wallMs);
    }
    return {
      size,
      firstRowsMs: median(firstRows),
      firstVisitBytes: median(firstBytes),
      laterVisitBytes,
      keptOrders,
      deviceBytes,
      pageCpuMs: pageCost.cpuMs,
      changesCpuMs: changesCost.cpuMs,
      wholeListCpuMs: wholeList.cpuMs,
      wholeListBytes: wholeList.bytes,
      cpuNote: costNote(costSince({ cpuMs: 0, waitMs: 0 }, pageCost.cost)),
      searchOnlineMs: median(searches),
      searchOfflineMs,
    };
  } finally {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function measureOrderList(): Promise<OrderListFigures[]> {
  const browser = await launchBrowser();
  try {
    const figures: OrderListFigures[] = [];
    for (const size of SIZES) figures.push(await measureSize(browser, size));
    return figures;
  } finally {
    await browser.close();
  }
}

const KB = 1024;

export function orderListSection(all: readonly OrderListFigures[]): Section {
  const smallest = all[0];
  const figures: Figure[] = [];
  for (const f of all) {
    const at = `${f.size.toLocaleString('en')} orders`;
    const largest = f.size === SIZES.at(-1);
    figures.push({
      name: `${at}: opening the list until its first rows, first visit`,
      value: f.firstRowsMs,
      unit: 'ms',
      digits: 0,
      ...(smallest && f !== smallest
        ? { baseline: { name: `the same at ${smallest.size} orders`, value: smallest.firstRowsMs } }
        : {}),
      ...(largest && smallest
        ? { aim: { text: 'ratio <= 1.3x', met: f.firstRowsMs <= 1.3 * smallest.firstRowsMs } }
        : {}),
      note: `median of ${VISITS} fresh profiles, from navigation start`,
    });
    figures.push({
      name: `${at}: bytes of the API calls of a first visit of the list`,
      value: f.firstVisitBytes / KB,
      unit: 'KB',
      digits: 1,
      note: `a page of 10 and the ${f.keptOrders} orders the device keeps`,
    });
    figures.push({
      name: `${at}: bytes of the API calls of a later visit, nothing changed`,
      value: f.laterVisitBytes / KB,
      unit: 'KB',
      digits: 1,
      ...(largest ? { aim: { text: '<= 50 KB', met: f.laterVisitBytes <= 50 * KB } } : {}),
    });
    figures.push({
      name: `${at}: server CPU per list page (GET orders/page)`,
      value: f.pageCpuMs,
      unit: 'ms',
      digits: 2,
      baseline: { name: "the spec's whole list (GET orders)", value: f.wholeListCpuMs },
      note: `whole list ${(f.wholeListBytes / KB).toLocaleString('en', { maximumFractionDigits: 0 })} KB; ${f.cpuNote}`,
    });
    figures.push({
      name: `${at}: server CPU per exchange with nothing changed (GET orders/changes)`,
      value: f.changesCpuMs,
      unit: 'ms',
      digits: 2,
    });
    figures.push({
      name: `${at}: search answered online (GET orders/page?search)`,
      value: f.searchOnlineMs,
      unit: 'ms',
      digits: 1,
      ...(largest ? { aim: { text: '<= 100 ms', met: f.searchOnlineMs <= 100 } } : {}),
      note: 'median of 4 searches, wall time of a request from this process',
    });
    figures.push({
      name: `${at}: search answered offline (the device's index)`,
      value: f.searchOfflineMs,
      unit: 'ms',
      digits: 1,
      ...(largest ? { aim: { text: '<= 100 ms', met: f.searchOfflineMs <= 100 } } : {}),
      note: 'median of 4 searches, in the page',
    });
    if (f.deviceBytes !== null) {
      figures.push({
        name: `${at}: the device's IndexedDB after the first visit`,
        value: f.deviceBytes / KB,
        unit: 'KB',
        digits: 0,
        note: `${f.keptOrders} orders kept`,
      });
    }
  }
  return {
    id: 'order-list',
    title: 'order list at 200 / 2,000 / 20,000 orders',
    figures,
    notes: [
      `a workshop of ${ORDERS_PER_YEAR} orders a year, the newest ${OPEN_ORDERS} open, the rest done and archived; ` +
        'wagons carry 4 wheelset numbers; each size on a product of its own (PGlite), seeded past the API',
      `server CPU: the server process over ${SERVER_REQUESTS} sequential requests from this process`,
      'bytes: the API calls as Chromium received them (headers and bodies); the app itself comes from the service ' +
        "worker's cache and is the same at every size",
    ],
  };
}
