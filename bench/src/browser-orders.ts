// Orders in Chromium, each against a baseline in the same page: opening an order with 5,000 activities against
// reading its 5,000 rows from IndexedDB; saving one edit locally (p95); pulling 10,000 activities into IndexedDB
// against one bulk put of the same rows. Figures are printed, never asserted.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { E2E_PASSWORD, type RunningProduct as Product } from '../../e2e/support/server.ts';
import type { Section } from './figures.ts';
import { IN, OUT, TEXT_KEYS as KEYS } from './wagon-keys.ts';

async function api<T>(product: Product, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${product.url}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A wagon order with `count` activities, pushed in batches of 1,000. */
async function orderWithActivities(product: Product, token: string, count: number) {
  const order = await api<{ id: string; number: string }>(product, token, 'POST', 'orders', {
    type: 'WAGON',
    maintenanceNumber: '21 81 2471 217-3',
    wagon: { wheelsetsOutgoing: [{ number: '' }, { number: '' }, { number: '' }, { number: '' }] },
  });
  for (let start = 0; start < count; start += 1000) {
    const now = new Date().toISOString();
    const activities = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      id: randomUUID(),
      oI: order.id,
      k: KEYS[(start + i) % KEYS.length],
      t: 'XML_MODIFICATION',
      oV: JSON.stringify({ value: `value ${start + i}`, CaptureDate: now }),
      c: now,
    }));
    await api(product, token, 'POST', 'activity/batch', { activities });
  }
  return order;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;

/** Reads an order's rows from IndexedDB with the raw API in the page: the floor any opening has to pay. */
function readRowsInPage(page: Page, orderId: string): Promise<number> {
  return page.evaluate(
    (id) =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('orderResults')
            .objectStore('orderResults')
            .index('orderId')
            .getAll(id);
          request.onsuccess = () => {
            open.result.close();
            resolve(performance.now() - started);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    orderId,
  );
}

/** One bulk put of an order's rows into a scratch database: the floor any pull has to pay for writing them. */
function bulkPutInPage(page: Page, orderId: string): Promise<{ ms: number; rows: number }> {
  return page.evaluate(
    (id) =>
      new Promise<{ ms: number; rows: number }>((resolve, reject) => {
        const source = indexedDB.open('versdb');
        source.onerror = () => reject(source.error);
        source.onsuccess = () => {
          const read = source.result
            .transaction('orderResults')
            .objectStore('orderResults')
            .index('orderId')
            .getAll(id);
          read.onsuccess = () => {
            source.result.close();
            const rows = read.result as { id: string }[];
            const scratch = indexedDB.open(`bench-scratch-${Math.random()}`, 1);
            scratch.onupgradeneeded = () => {
              const store = scratch.result.createObjectStore('orderResults', { keyPath: 'id' });
              store.createIndex('orderId', 'orderId');
              store.createIndex('sent', 'sent');
              store.createIndex('sent_orderId', ['sent', 'orderId']);
            };
            scratch.onsuccess = () => {
              const started = performance.now();
              const tx = scratch.result.transaction('orderResults', 'readwrite');
              for (const row of rows) tx.objectStore('orderResults').put(row);
              tx.oncomplete = () => resolve({ ms: performance.now() - started, rows: rows.length });
              tx.onerror = () => reject(tx.error);
            };
          };
        };
      }),
    orderId,
  );
}

/** p95 of single-row puts in their own transactions with the raw API: the floor of saving one edit. */
function rawPutP95InPage(page: Page, durability: 'strict' | 'relaxed', count: number): Promise<number> {
  return page.evaluate(
    ({ durability, count }) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(`bench-put-${Math.random()}`, 1);
        open.onupgradeneeded = () => open.result.createObjectStore('rows', { keyPath: 'id' });
        open.onerror = () => reject(open.error);
        open.onsuccess = async () => {
          const times: number[] = [];
          for (let i = 0; i < count; i++) {
            const started = performance.now();
            await new Promise<void>((done, fail) => {
              const tx = open.result.transaction('rows', 'readwrite', { durability });
              tx.objectStore('rows').put({ id: String(i), outputValue: JSON.stringify({ value: `D-${i}` }) });
              tx.oncomplete = () => done();
              tx.onerror = () => fail(tx.error);
            });
            times.push(performance.now() - started);
          }
          times.sort((a, b) => a - b);
          resolve(times[Math.ceil(0.95 * times.length) - 1] ?? NaN);
        };
      }),
    { durability, count },
  );
}

async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('staff');
  await page.getByTestId('login-password').fill(E2E_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu').waitFor();
}

const wagonNumberShown = (page: Page) =>
  page.locator(`[data-key="${IN}.Waggonnummer"][value="21 81 2471 217-3"]`).waitFor({ timeout: 60_000 });

export interface BrowserOrderFigures {
  openMs: number;
  readMs: number;
  saveP95Ms: number;
  saveMedianMs: number;
  saves: number;
  rawStrictP95Ms: number;
  rawRelaxedP95Ms: number;
  pullMs: number;
  pullRows: number;
  bulkPutMs: number;
}

export async function measureBrowserOrders(product: Product): Promise<BrowserOrderFigures> {
  const signin = await fetch(`${product.url}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'staff', password: E2E_PASSWORD }),
  });
  const { token } = (await signin.json()) as { token: string };
  const medium = await orderWithActivities(product, token, 5000);
  const large = await orderWithActivities(product, token, 10_000);

  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page);
    // The first visit pulls the 5,000 rows into IndexedDB; the measured openings read them from there.
    await page.goto(`/orders/wagon/${medium.id}/basedata`);
    await wagonNumberShown(page);
    await page.waitForFunction(() => performance.getEntriesByName('vers:pull').length > 0, null, { timeout: 60_000 });

    const opens: number[] = [];
    const reads: number[] = [];
    for (let run = 0; run < 5; run++) {
      await page.goto('/orders');
      const row = page.getByTestId(`order-row-${medium.number}`);
      await row.waitFor();
      reads.push(await readRowsInPage(page, medium.id));
      const started = performance.now();
      await row.click();
      await wagonNumberShown(page);
      opens.push(performance.now() - started);
    }

    // Saving: each edit typed into a field and left, as a user does; the time is the local save's own measure.
    const field = page.locator(`[data-key="${OUT}.Halterkurzkennzeichen"]`);
    await page.evaluate(() => performance.clearMeasures('vers:save'));
    const saves = 40;
    for (let i = 0; i < saves; i++) {
      await field.fill(`D-${i}`);
      await field.press('Tab');
      await page.waitForFunction((n) => performance.getEntriesByName('vers:save').length >= n, i + 1);
    }
    const saveTimes = await page.evaluate(() => performance.getEntriesByName('vers:save').map((e) => e.duration));
    const rawStrictP95 = await rawPutP95InPage(page, 'strict', saves);
    const rawRelaxedP95 = await rawPutP95InPage(page, 'relaxed', saves);

    // Pulling: a fresh browser profile opens the 10,000-activity order.
    const fresh = await browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 800 } });
    const second = await fresh.newPage();
    await signIn(second);
    await second.goto(`/orders/wagon/${large.id}/basedata`);
    await second.waitForFunction(
      () =>
        performance
          .getEntriesByName('vers:pull')
          .some((e) => ((e as PerformanceMeasure).detail as { rows: number }).rows >= 10_000),
      null,
      { timeout: 120_000 },
    );
    const pull = await second.evaluate(() => {
      const entry = performance
        .getEntriesByName('vers:pull')
        .find((e) => ((e as PerformanceMeasure).detail as { rows: number }).rows >= 10_000) as PerformanceMeasure;
      return { ms: entry.duration, rows: (entry.detail as { rows: number }).rows };
    });
    const puts: number[] = [];
    for (let run = 0; run < 3; run++) puts.push((await bulkPutInPage(second, large.id)).ms);

    return {
      openMs: median(opens),
      readMs: median(reads),
      saveP95Ms: percentile(saveTimes, 95),
      saveMedianMs: median(saveTimes),
      saves: saveTimes.length,
      rawStrictP95Ms: rawStrictP95,
      rawRelaxedP95Ms: rawRelaxedP95,
      pullMs: pull.ms,
      pullRows: pull.rows,
      bulkPutMs: median(puts),
    };
  } finally {
    await browser.close();
  }
}

export function browserOrdersSection(f: BrowserOrderFigures): Section {
  return {
    id: 'browser-orders',
    title: 'orders in Chromium',
    figures: [
      {
        name: 'open an order of 5,000 activities until its first tab shows',
        value: f.openMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'reading its rows from IndexedDB', value: f.readMs },
        aim: { text: 'ratio <= 5x', met: f.openMs / f.readMs <= 5 },
      },
      {
        name: 'save one edit locally, p95',
        value: f.saveP95Ms,
        unit: 'ms',
        digits: 1,
        baseline: { name: 'one raw durable (strict) IndexedDB put, p95', value: f.rawStrictP95Ms },
        aim: { text: '< 16 ms', met: f.saveP95Ms < 16 },
        note: `over ${f.saves} edits`,
      },
      { name: 'save one edit locally, median', value: f.saveMedianMs, unit: 'ms', digits: 1 },
      { name: 'one raw relaxed IndexedDB put, p95', value: f.rawRelaxedP95Ms, unit: 'ms', digits: 1 },
      {
        name: 'pull an order of 10,000 activities into IndexedDB',
        value: f.pullMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'one bulk put of its rows', value: f.bulkPutMs },
        aim: { text: 'ratio <= 2x', met: f.pullMs / f.bulkPutMs <= 2 },
        note: `${f.pullRows} rows`,
      },
    ],
    notes: ['openings: median of 5, after a first visit pulled the rows; bulk put: median of 3'],
  };
}
