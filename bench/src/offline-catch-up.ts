// Catching up after a time offline, in Chromium against the real product: a signed-in editor holds a wagon order
// open, goes offline, makes 1,000 edits, comes back online. Measured: the time until every edit is acknowledged
// (all its rows in IndexedDB `sent` 1), from the network coming back and from the scheduler's first request, and
// the requests made to the server meanwhile, per endpoint. Figures are printed, never asserted.
import type { Section } from './figures.ts';
import { api, apiToken } from './product-api.ts';
import { randomUUID } from 'node:crypto';
import { attributeValue, DEFAULT_ACTIVITY_TYPE, SENT_STATES, UNSENT_COUNTER, type Activity } from '@vers/domain';
import type { Page, Request } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { E2E_PASSWORD, type RunningProduct as Product } from '../../e2e/support/server.ts';
import { IN, TEXT_KEYS as KEYS } from './wagon-keys.ts';

const EDITS = 1000;
/** The scheduler's period (SYNC_INTERVAL_MS of apps/web/src/offline/scheduler.ts). */
const SYNC_INTERVAL_MS = 10_000;
/** Requests after the last acknowledgement still belong to the exchange (its `last`, a pull): watched this long. */
const SETTLE_MS = 2_000;
const POLL_MS = 50;

export const REQUEST_KINDS = ['online check', 'batch', 'last', 'pull', 'orders', 'other'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
type Counts = Record<RequestKind, number>;

export interface OfflineCatchUpFigures {
  edits: number;
  /** From the network coming back to every edit acknowledged. */
  sinceOnlineMs: number;
  /** From the scheduler's first request (its online check) after the network came back to every edit acknowledged. */
  sinceFirstRequestMs: number;
  /** From the network coming back to that first request: the wait for the scheduler's next tick. */
  waitForTickMs: number;
  /** Requests to the server between the network coming back and the last acknowledgement, per endpoint. */
  requests: Counts;
  /** Requests in the `SETTLE_MS` after it: the rest of the exchange. */
  after: Counts;
  /** Paths of requests of kind 'other', for the printout. */
  otherPaths: string[];
  /** Answers outside 200-299 in the whole watched time. */
  failures: number;
  /** Median time of one `POST activity/batch`, request start to answer end. */
  batchMedianMs: number;
  /** The batches' times added up: the rest of the catch-up is the browser's own work (IndexedDB, scheduling). */
  batchTotalMs: number;
}

const now = () => performance.timeOrigin + performance.now();

async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('staff');
  await page.getByTestId('login-password').fill(E2E_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu').waitFor();
}

function kindOf(request: Request, origin: string): RequestKind | null {
  const url = new URL(request.url());
  if (url.origin !== origin) return null;
  const method = request.method();
  if (method === 'GET' && url.pathname === '/' && url.searchParams.has('t')) return 'online check';
  if (method === 'POST' && url.pathname === '/api/v1/activity/batch') return 'batch';
  if (method === 'GET' && /^\/api\/v1\/activity\/[^/]+\/last$/.test(url.pathname)) return 'last';
  if (method === 'GET' && /^\/api\/v1\/activity\/[^/]+$/.test(url.pathname)) return 'pull';
  if (method === 'POST' && url.pathname === '/api/v1/orders') return 'orders';
  return 'other';
}

/** The edits as the app's recordChanges stores them: unsent, counter "maximum", local counters in edit order. */
function editRows(orderId: string, firstCounterLocal: number): Activity[] {
  const started = Date.now() - EDITS * 1000; // one edit a second, the last one just now
  return Array.from({ length: EDITS }, (_, i) => {
    const created = new Date(started + i * 1000);
    return {
      id: randomUUID(),
      orderId,
      key: KEYS[i % KEYS.length]!,
      outputValue: JSON.stringify(attributeValue(`offline ${i}`, created)),
      activityType: DEFAULT_ACTIVITY_TYPE,
      created: created.toISOString(),
      counter: UNSENT_COUNTER,
      counterLocal: firstCounterLocal + i,
      reverted: false,
      sent: SENT_STATES.UNSENT,
    };
  });
}

/** Counts the order's rows in `orderResults` with the given sent state, through the app's compound index. */
function countRowsInPage(page: Page, orderId: string, sent: number): Promise<number> {
  return page.evaluate(
    ({ orderId, sent }) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('orderResults')
            .objectStore('orderResults')
            .index('[sent+orderId]')
            .count(IDBKeyRange.only([sent, orderId]));
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    { orderId, sent },
  );
}

/** The highest local counter among the order's waiting rows plus one (the app's nextCounterLocal), 0 if none. */
function nextCounterLocalInPage(page: Page, orderId: string): Promise<number> {
  return page.evaluate(
    (orderId) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('orderResults')
            .objectStore('orderResults')
            .index('[sent+orderId]')
            .getAll(IDBKeyRange.only([0, orderId]));
          request.onsuccess = () => {
            open.result.close();
            const rows = request.result as { counterLocal: number }[];
            resolve(rows.reduce((next, row) => Math.max(next, row.counterLocal + 1), 0));
          };
          request.onerror = () => reject(request.error);
        };
      }),
    orderId,
  );
}

/** Adds the rows in one transaction, as one `recordChanges` of many changes would. */
function addRowsInPage(page: Page, rows: Activity[]): Promise<void> {
  return page.evaluate(
    (rows) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('orderResults', 'readwrite');
          for (const row of rows) tx.objectStore('orderResults').add(row);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    rows,
  );
}

/**
 * Polls every `pollMs` until the order has at least `expected` rows with sent 1; answers the wall-clock time (ms
 * since 1970, sub-millisecond) the poll saw it, or throws with the counts after `timeoutMs`.
 */
function waitForSentInPage(page: Page, orderId: string, expected: number, pollMs: number, timeoutMs: number) {
  // No named functions in here: tsx would wrap them in a helper the page does not have.
  return page.evaluate(
    async ({ orderId, expected, pollMs, timeoutMs }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        const deadline = performance.now() + timeoutMs;
        for (;;) {
          const [sent, unsent] = await new Promise<[number, number]>((resolve, reject) => {
            const index = db.transaction('orderResults').objectStore('orderResults').index('[sent+orderId]');
            const sent = index.count(IDBKeyRange.only([1, orderId]));
            const unsent = index.count(IDBKeyRange.only([0, orderId]));
            unsent.onsuccess = () => resolve([sent.result, unsent.result]);
            unsent.onerror = () => reject(unsent.error);
          });
          if (sent >= expected) return performance.timeOrigin + performance.now();
          if (performance.now() > deadline) {
            throw new Error(`after ${timeoutMs} ms: ${sent} of ${expected} rows sent, ${unsent} unsent`);
          }
          await new Promise((resolve) => setTimeout(resolve, pollMs));
        }
      } finally {
        db.close();
      }
    },
    { orderId, expected, pollMs, timeoutMs },
  );
}

const zero = (): Counts => ({ 'online check': 0, batch: 0, last: 0, pull: 0, orders: 0, other: 0 });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function measureOfflineCatchUp(product: Product): Promise<OfflineCatchUpFigures> {
  const token = await apiToken(product);
  const order = await api<{ id: string; lastCounter: number }>(product, token, 'POST', 'orders', {
    type: 'WAGON',
    maintenanceNumber: '21 81 2471 217-3',
    wagon: { wheelsetsOutgoing: [{ number: '' }, { number: '' }, { number: '' }, { number: '' }] },
  });

  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`/orders/wagon/${order.id}/basedata`);
    await page.locator(`[data-key="${IN}.Waggonnummer"][value="21 81 2471 217-3"]`).waitFor({ timeout: 60_000 });
    // The opening exchange has pulled the order's creation activities: the editor holds the order as a device would.
    await page.waitForFunction(() => performance.getEntriesByName('vers:pull').length > 0, null, { timeout: 60_000 });
    const sentBefore = await countRowsInPage(page, order.id, SENT_STATES.SENT);
    if (sentBefore < order.lastCounter) throw new Error(`only ${sentBefore} of ${order.lastCounter} rows pulled`);

    await context.setOffline(true);
    const rows = editRows(order.id, await nextCounterLocalInPage(page, order.id));
    await addRowsInPage(page, rows);
    const unsent = await countRowsInPage(page, order.id, SENT_STATES.UNSENT);
    if (unsent !== EDITS) throw new Error(`${unsent} unsent rows before going online, expected ${EDITS}`);

    const origin = new URL(product.url).origin;
    const seen: { kind: RequestKind; at: number; path: string }[] = [];
    const batchTimes: number[] = [];
    let failures = 0;
    page.on('request', (request) => {
      const kind = kindOf(request, origin);
      if (kind) seen.push({ kind, at: now(), path: new URL(request.url()).pathname });
    });
    page.on('requestfinished', (request) => {
      if (kindOf(request, origin) !== 'batch') return;
      const timing = request.timing();
      if (timing.responseEnd >= 0) batchTimes.push(timing.responseEnd);
    });
    const answered = new WeakSet<Request>();
    page.on('response', (response) => {
      answered.add(response.request());
      if (kindOf(response.request(), origin) && (response.status() < 200 || response.status() > 299)) failures += 1;
    });
    // The online check drops the body of its answer (net::ERR_ABORTED then): an answered request is no failure.
    page.on('requestfailed', (request) => {
      if (kindOf(request, origin) && !answered.has(request)) failures += 1;
    });

    const onlineAt = now();
    await context.setOffline(false);
    const ackedAt = await waitForSentInPage(page, order.id, sentBefore + EDITS, POLL_MS, 4 * SYNC_INTERVAL_MS);
    await page.waitForTimeout(SETTLE_MS);

    // A tick that failed offline just before is not part of the catch-up.
    const online = seen.filter((entry) => entry.at >= onlineAt);
    const firstCheck = online.find((entry) => entry.kind === 'online check');
    if (!firstCheck) throw new Error('no online check seen after the network came back');
    const requests = zero();
    const after = zero();
    for (const entry of online) (entry.at <= ackedAt ? requests : after)[entry.kind] += 1;
    return {
      edits: EDITS,
      sinceOnlineMs: ackedAt - onlineAt,
      sinceFirstRequestMs: ackedAt - firstCheck.at,
      waitForTickMs: firstCheck.at - onlineAt,
      requests,
      after,
      otherPaths: [...new Set(online.filter((entry) => entry.kind === 'other').map((entry) => entry.path))],
      failures,
      batchMedianMs: median(batchTimes),
      batchTotalMs: batchTimes.reduce((sum, ms) => sum + ms, 0),
    };
  } finally {
    await browser.close();
  }
}

/** The requests per kind, in words. */
const split = (counts: Counts) =>
  REQUEST_KINDS.filter((kind) => counts[kind] > 0)
    .map((kind) => `${counts[kind]} ${kind}`)
    .join(', ') || 'none';

export function offlineCatchUpSection(f: OfflineCatchUpFigures): Section {
  const total = (counts: Counts) => REQUEST_KINDS.reduce((sum, kind) => sum + counts[kind], 0);
  return {
    id: 'offline-catch-up',
    title: `offline catch-up, ${f.edits} edits on one order`,
    figures: [
      {
        name: "all acknowledged, from the scheduler's first request",
        value: f.sinceFirstRequestMs,
        unit: 'ms',
        digits: 0,
        ...(f.failures > 0 ? { note: `${f.failures} FAILED requests` } : {}),
      },
      { name: 'all acknowledged, from the network coming back', value: f.sinceOnlineMs, unit: 'ms', digits: 0 },
      { name: "of it waiting for the scheduler's tick", value: f.waitForTickMs, unit: 'ms', digits: 0 },
      {
        name: 'requests until all acknowledged',
        value: total(f.requests),
        unit: 'requests',
        digits: 0,
        note: split(f.requests),
      },
      {
        name: `requests within ${SETTLE_MS / 1000} s after`,
        value: total(f.after),
        unit: 'requests',
        digits: 0,
        note: split(f.after),
      },
      { name: 'POST activity/batch, median', value: f.batchMedianMs, unit: 'ms', digits: 0 },
      { name: 'POST activity/batch, all added up', value: f.batchTotalMs, unit: 'ms', digits: 0 },
    ],
    notes: f.otherPaths.length ? [`other requests: ${f.otherPaths.join(', ')}`] : [],
  };
}
