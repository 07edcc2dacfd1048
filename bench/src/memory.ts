// The browser's memory, against the real product (issue 19): the JS heap and the renderer process's resident memory
// (RSS) while pictures are uploaded, for 10, 50 and 100 pictures (the goal: neither grows with the number of
// pictures held on the device; the third count tells a level that rises once from a growth that goes on), and
// while the order of 5,000 activities is open in the editor.
// - JS heap: CDP Performance.getMetrics JSHeapUsedSize of the page, sampled every 100 ms ("peak"); and every second
//   right after a forced full garbage collection (HeapProfiler.collectGarbage): what the page still holds ("after
//   GC"). The forced collections lower the raw peak too, so that peak is not comparable with the images section's.
// - RSS: VmRSS in /proc/<pid>/status of the largest renderer process the browser lists (SystemInfo.getProcessInfo);
//   each scenario has its own browser context, so its own renderer; the service worker runs in the page's.
// Each upload: a signed-in editor holds a new wagon order open, goes offline, N pictures of about 1 MB are kept as the
// app keeps them (a PNG Blob and a 320 px JPEG thumbnail), the network comes back, the scheduler sends them.
// Figures are printed, never asserted.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { E2E_PASSWORD, type RunningProduct as Product } from '../../e2e/support/server.ts';
import type { Figure, Section } from './figures.ts';
import { apiToken, wagonOrder } from './product-api.ts';
import { randomPng } from './images.ts';
import { IN } from './wagon-keys.ts';

/** Picture counts of the uploads: the figures of the larger against the smaller show growth with the count. */
export const UPLOAD_COUNTS = [10, 50, 100] as const;
const ORDER_ACTIVITIES = 5000;
const POLL_MS = 100;
/** A forced garbage collection every this many polls (one a second). */
const GC_EVERY = 10;
const UPLOAD_TIMEOUT_MS = 300_000;
const WAGON = '21 81 2471 217-3';
/** A figure at most this much above the 10-picture one counts as not growing with the count. */
const GROWTH_AIM = 1.2;

// --- the product ------------------------------------------------------------------------------------------------

async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('staff');
  await page.getByTestId('login-password').fill(E2E_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu').waitFor();
}

/** Opens the order in the editor and waits until its first tab shows it and the device has pulled it. */
async function openOrder(page: Page, orderId: string) {
  await page.goto(`/orders/wagon/${orderId}/basedata`);
  await page.locator(`[data-key="${IN}.Waggonnummer"][value="${WAGON}"]`).waitFor({ timeout: 120_000 });
  await page.waitForFunction(() => performance.getEntriesByName('vers:pull').length > 0, null, { timeout: 120_000 });
}

// --- memory -----------------------------------------------------------------------------------------------------

function rssOf(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Reads the page's JS heap and its renderer's RSS; `collect` forces a full garbage collection first. */
class MemoryProbe {
  private constructor(
    private readonly cdp: CDPSession,
    private readonly browserCdp: CDPSession,
  ) {}

  static async attach(browser: Browser, context: BrowserContext, page: Page): Promise<MemoryProbe> {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    return new MemoryProbe(cdp, await browser.newBrowserCDPSession());
  }

  async heap(collect: boolean): Promise<number | null> {
    try {
      if (collect) await this.cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await this.cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null;
    } catch {
      return null;
    }
  }

  /** The largest renderer's RSS: the page's (a spare renderer beside it is small). */
  async rss(): Promise<number | null> {
    try {
      const { processInfo } = await this.browserCdp.send('SystemInfo.getProcessInfo');
      const sizes = processInfo
        .filter((p) => p.type === 'renderer')
        .map((p) => rssOf(p.id))
        .filter((n): n is number => n !== null);
      return sizes.length ? Math.max(...sizes) : null;
    } catch {
      return null;
    }
  }

  async detach() {
    await this.cdp.detach().catch(() => undefined);
    await this.browserCdp.detach().catch(() => undefined);
  }
}

const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** The peaks of the heap (raw and after GC) and RSS while `until` runs, sampled every POLL_MS. */
async function sampleWhile<T>(probe: MemoryProbe, until: Promise<T>) {
  let done = false;
  const result = until.finally(() => (done = true));
  const peaks = { heap: null as number | null, heapAfterGc: null as number | null, rss: null as number | null };
  for (let poll = 0; !done; poll++) {
    // The first poll collects too: an upload shorter than GC_EVERY polls (10 pictures on a quick machine) still has a
    // heap-after-GC figure, taken as it began, instead of none (the report's NaN).
    const collect = poll % GC_EVERY === 0;
    const heap = await probe.heap(collect);
    if (collect) peaks.heapAfterGc = maxOf(peaks.heapAfterGc, heap);
    else peaks.heap = maxOf(peaks.heap, heap);
    peaks.rss = maxOf(peaks.rss, await probe.rss());
    await Promise.race([result.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
  }
  return { result: await result, ...peaks };
}

// --- pictures ---------------------------------------------------------------------------------------------------

/** Keeps a picture as the app's storeImage does: a PNG Blob and a 320 px JPEG thumbnail (quality 0.8), unsent. */
function storePictureInPage(page: Page, row: Record<string, unknown>, base64: string) {
  // No named functions in here: tsx would wrap them in a helper the page does not have.
  return page.evaluate(
    async ({ row, base64 }) => {
      const binary = atob(base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const data = new Blob([bytes], { type: 'image/png' });
      const bitmap = await createImageBitmap(data);
      const scale = Math.min(1, 320 / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      const thumb = canvas.toDataURL('image/jpeg', 0.8);
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('orderImages', 'readwrite');
          tx.objectStore('orderImages').add({ ...row, data, thumb, size: bytes.length });
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
      } finally {
        db.close();
      }
    },
    { row, base64 },
  );
}

/** How many of `ids` have sent 1 (keys only: no picture is read). */
function sentCountInPage(page: Page, ids: string[]): Promise<number> {
  return page.evaluate(
    (ids) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('orderImages').objectStore('orderImages').index('sent').getAllKeys(1);
          request.onsuccess = () => {
            open.result.close();
            const sent = new Set(request.result as string[]);
            resolve(ids.filter((id) => sent.has(id)).length);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    ids,
  );
}

export interface MemoryState {
  /** JSHeapUsedSize right after a forced garbage collection. */
  heapAfterGcBytes: number | null;
  rssBytes: number | null;
}

export interface UploadMemory {
  pictures: number;
  pictureBytes: number;
  /** The pictures kept, offline, before the network comes back. */
  before: MemoryState;
  /** Peaks while the upload runs. */
  peakHeapBytes: number | null;
  peakHeapAfterGcBytes: number | null;
  peakRssBytes: number | null;
  /** All sent. */
  after: MemoryState;
  uploadMs: number;
}

async function state(probe: MemoryProbe): Promise<MemoryState> {
  return { heapAfterGcBytes: await probe.heap(true), rssBytes: await probe.rss() };
}

async function measureUpload(product: Product, browser: Browser, token: string, count: number) {
  const order = await wagonOrder(product, token);
  const context = await browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await signIn(page);
    await openOrder(page, order.id);
    const user = JSON.parse((await page.evaluate(() => localStorage.getItem('vers-user'))) ?? 'null') as {
      id: number;
      firstName?: string;
      lastName?: string;
    } | null;
    if (!user) throw new Error('no vers-user in localStorage');
    const creator = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();

    await context.setOffline(true);
    const ids: string[] = [];
    let pictureBytes = 0;
    const taken = Date.now() - count * 60_000;
    for (let i = 0; i < count; i++) {
      const png = randomPng();
      pictureBytes = png.length;
      const capturedDate = new Date(taken + i * 60_000).toISOString();
      const imageId = randomUUID();
      ids.push(imageId);
      await storePictureInPage(
        page,
        {
          imageId,
          orderId: order.id,
          tabName: 'basedata',
          name: `basedata-${capturedDate.replace(/[:.]/g, '-')}.png`,
          capturedDate,
          sent: 0,
          toBeDeleted: 0,
          owner: user.id,
          ...(creator ? { creator } : {}),
        },
        png.toString('base64'),
      );
    }

    const probe = await MemoryProbe.attach(browser, context, page);
    try {
      const before = await state(probe);
      const started = performance.now();
      await context.setOffline(false);
      const upload = (async () => {
        const deadline = started + UPLOAD_TIMEOUT_MS;
        for (;;) {
          const sent = await sentCountInPage(page, ids);
          if (sent >= ids.length) return performance.now() - started;
          if (performance.now() > deadline) throw new Error(`after ${UPLOAD_TIMEOUT_MS} ms: ${sent} of ${count} sent`);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      })();
      const sampled = await sampleWhile(probe, upload);
      return {
        pictures: count,
        pictureBytes,
        before,
        peakHeapBytes: sampled.heap,
        peakHeapAfterGcBytes: sampled.heapAfterGc,
        peakRssBytes: sampled.rss,
        after: await state(probe),
        uploadMs: sampled.result,
      } satisfies UploadMemory;
    } finally {
      await probe.detach();
    }
  } finally {
    await context.close();
  }
}

// --- the order of 5,000 activities ------------------------------------------------------------------------------

export interface OrderMemory {
  activities: number;
  /** Peaks while the editor opens it (the first visit: pulled into IndexedDB, then shown). */
  peakHeapBytes: number | null;
  peakRssBytes: number | null;
  /** Open and pulled, after a forced garbage collection. */
  open: MemoryState;
}

async function measureOrder(product: Product, browser: Browser, token: string): Promise<OrderMemory> {
  const order = await wagonOrder(product, token, ORDER_ACTIVITIES);
  const context = await browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/orders');
    const probe = await MemoryProbe.attach(browser, context, page);
    try {
      const sampled = await sampleWhile(probe, openOrder(page, order.id));
      return {
        activities: ORDER_ACTIVITIES,
        peakHeapBytes: maxOf(sampled.heap, sampled.heapAfterGc),
        peakRssBytes: sampled.rss,
        open: await state(probe),
      };
    } finally {
      await probe.detach();
    }
  } finally {
    await context.close();
  }
}

// --- both -------------------------------------------------------------------------------------------------------

export interface MemoryFigures {
  uploads: UploadMemory[];
  order: OrderMemory;
}

export async function measureMemory(product: Product): Promise<MemoryFigures> {
  const token = await apiToken(product);
  const browser = await launchBrowser();
  try {
    const uploads: UploadMemory[] = [];
    for (const count of UPLOAD_COUNTS) uploads.push(await measureUpload(product, browser, token, count));
    return { uploads, order: await measureOrder(product, browser, token) };
  } finally {
    await browser.close();
  }
}

export function memorySection(f: MemoryFigures): Section {
  const mb = (bytes: number | null) => (bytes === null ? NaN : bytes / 1e6);
  const small = f.uploads[0]!;
  const figures: Figure[] = [];
  for (const u of f.uploads) {
    const against = (value: number | null, base: number | null): Partial<Figure> =>
      u === small
        ? {}
        : {
            baseline: { name: `${small.pictures} pictures`, value: mb(base) },
            aim: {
              text: `not growing with the count: <= ${GROWTH_AIM}x the ${small.pictures}-picture figure`,
              met: value !== null && base !== null && value <= base * GROWTH_AIM,
            },
          };
    const name = (what: string) => `upload of ${u.pictures} pictures: ${what}`;
    figures.push(
      {
        name: name('JS heap after GC, peak'),
        value: mb(u.peakHeapAfterGcBytes),
        unit: 'MB',
        digits: 1,
        note: `before ${mb(u.before.heapAfterGcBytes).toFixed(1)} MB, after ${mb(u.after.heapAfterGcBytes).toFixed(1)} MB`,
        ...against(u.peakHeapAfterGcBytes, small.peakHeapAfterGcBytes),
      },
      { name: name('JS heap, peak'), value: mb(u.peakHeapBytes), unit: 'MB', digits: 1 },
      {
        name: name('renderer RSS, peak'),
        value: mb(u.peakRssBytes),
        unit: 'MB',
        digits: 0,
        note: `before ${mb(u.before.rssBytes).toFixed(0)} MB, after ${mb(u.after.rssBytes).toFixed(0)} MB`,
        ...against(u.peakRssBytes, small.peakRssBytes),
      },
      {
        name: name('JS heap after GC, all sent'),
        value: mb(u.after.heapAfterGcBytes),
        unit: 'MB',
        digits: 1,
        ...against(u.after.heapAfterGcBytes, small.after.heapAfterGcBytes),
      },
      { name: name('time until all sent'), value: u.uploadMs, unit: 'ms', digits: 0 },
    );
  }
  const o = f.order;
  figures.push(
    {
      name: `order of ${o.activities.toLocaleString('en')} activities open: JS heap after GC`,
      value: mb(o.open.heapAfterGcBytes),
      unit: 'MB',
      digits: 1,
    },
    {
      name: `order of ${o.activities.toLocaleString('en')} activities open: renderer RSS`,
      value: mb(o.open.rssBytes),
      unit: 'MB',
      digits: 0,
    },
    {
      name: `order of ${o.activities.toLocaleString('en')} activities opening: JS heap, peak`,
      value: mb(o.peakHeapBytes),
      unit: 'MB',
      digits: 1,
    },
    {
      name: `order of ${o.activities.toLocaleString('en')} activities opening: renderer RSS, peak`,
      value: mb(o.peakRssBytes),
      unit: 'MB',
      digits: 0,
    },
  );
  return {
    id: 'memory',
    title: `browser memory: uploads of ${UPLOAD_COUNTS.slice(0, -1).join(', ')} and ${UPLOAD_COUNTS.at(-1)} pictures, an order of ${o.activities.toLocaleString('en')} activities`,
    figures,
    notes: [
      `pictures of ${(small.pictureBytes / 1e6).toFixed(2)} MB (random pixels), kept as the app keeps them (PNG Blob, ` +
        "JPEG thumbnail), uploaded by the app's scheduler after coming online; JS heap: CDP JSHeapUsedSize every " +
        `${POLL_MS} ms, "after GC" every ${(POLL_MS * GC_EVERY) / 1000} s right after a forced full collection ` +
        '(which also lowers the raw peak); RSS: VmRSS of the largest renderer process',
    ],
  };
}
