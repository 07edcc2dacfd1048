// Pictures in Chromium, against the real product. (1) Upload after coming online: a signed-in editor holds a wagon
// order open, goes offline, 50 pictures of about 1 MB are stored as the app stores them, the network comes back;
// measured: the time until all 50 are sent, and the browser's memory meanwhile. (2) The picture list: 200 pictures
// of one order on /images/{orderId} (stored as the app stores them: the PNG as a Blob, a 320 px JPEG thumbnail)
// against a plain page with 200 <img> of the same full PNGs, both timed from navigation start until the pictures in
// the viewport are loaded and decoded. Figures are printed, never asserted.
import type { Section } from './figures.ts';
import { api, apiToken, wagonOrder } from './product-api.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { TIMELINE_CATEGORIES } from './browser-orders.ts';
import { E2E_PASSWORD, type RunningProduct as Product } from '../../e2e/support/server.ts';
import type { LocalImage } from '../../apps/web/src/offline/versdb.ts';
import { MAX_THUMB_CHARS, THUMB_QUALITIES, THUMB_SIDE } from '../../apps/web/src/offline/images.ts';

/** Picture size: 600×580 RGB of random bytes, which deflate cannot shrink: a PNG of 1.04 MB. */
const WIDTH = 600;
const HEIGHT = 580;
const UPLOADS = 50;
const LISTED = 200;
/** Distinct pictures among the 200 listed (more than the viewport shows, so no two visible ones are the same). */
const DISTINCT = 20;
const RUNS = 3;
const POLL_MS = 100;
const UPLOAD_TIMEOUT_MS = 300_000;
const IN = '$.Body.Wagen.technicalWaggonIncoming';
const VIEWPORT = { width: 1280, height: 800 };
/** An origin of its own for the plain page: the product's service worker would answer any path of its origin. */
const PLAIN_URL = 'http://bench.invalid/plain';

const now = () => performance.timeOrigin + performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

// --- PNGs -------------------------------------------------------------------------------------------------------

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A real, complete PNG (8-bit RGB, filter 0 on every row) of random pixels. */
export function randomPng(width = WIDTH, height = HEIGHT): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB; compression, filter and interlace 0
  const stride = 1 + width * 3;
  const raw = randomBytes(stride * height);
  for (let y = 0; y < height; y++) raw[y * stride] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// --- the product ------------------------------------------------------------------------------------------------

async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('staff');
  await page.getByTestId('login-password').fill(E2E_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu').waitFor();
}

/** The signed-in user's id, as the app keeps it (localStorage `vers-user`): the owner of pictures taken. */
async function sessionUser(page: Page): Promise<{ id: number; creator: string }> {
  const user = await page.evaluate(() => localStorage.getItem('vers-user'));
  if (!user) throw new Error('no vers-user in localStorage');
  const parsed = JSON.parse(user) as { id: number; firstName?: string; lastName?: string };
  return { id: parsed.id, creator: `${parsed.firstName ?? ''} ${parsed.lastName ?? ''}`.trim() };
}

/** A picture row as node hands it to the page: the PNG as base64 text, which the page turns into a Blob. */
type RowInNode = Omit<LocalImage, 'data'> & { data: string };

/**
 * Stores rows as the app's storeImage does: the PNG as a Blob, with a thumbnail made as the app's makeThumbnail
 * makes it, with its side, qualities and size limit passed in (a JPEG on white; lower quality, then smaller, until
 * its data URL fits MAX_THUMB_CHARS: a picture of random pixels, as here, is the busiest there is). The steps are
 * written out again because page.evaluate runs only what is inside it. Each row is a copy of `row` with its own id,
 * capture date (and asset id), all in one transaction.
 */
function addImagesInPage(page: Page, row: RowInNode, copies: { imageId: string; capturedDate: string }[]) {
  // No named functions in here: tsx would wrap them in a helper the page does not have.
  return page.evaluate(
    async ({ row, copies, maxThumbChars, side, qualities }) => {
      const binary = atob(row.data);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const data = new Blob([bytes], { type: 'image/png' });
      const bitmap = await createImageBitmap(data);
      const canvas = document.createElement('canvas');
      const context = canvas.getContext('2d')!;
      let thumb = '';
      for (let longest = side; longest >= side / 4; longest /= 2) {
        const scale = Math.min(1, longest / Math.max(bitmap.width, bitmap.height));
        canvas.width = Math.max(1, Math.round(bitmap.width * scale));
        canvas.height = Math.max(1, Math.round(bitmap.height * scale));
        context.fillStyle = '#fff';
        context.fillRect(0, 0, canvas.width, canvas.height);
        context.imageSmoothingQuality = 'high';
        context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        for (const quality of qualities) {
          thumb = canvas.toDataURL('image/jpeg', quality);
          if (thumb.length <= maxThumbChars) break;
        }
        if (thumb.length <= maxThumbChars) break;
      }
      bitmap.close();
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('orderImages', 'readwrite');
          for (const copy of copies) tx.objectStore('orderImages').add({ ...row, ...copy, data, thumb });
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
      } finally {
        db.close();
      }
    },
    { row, copies, maxThumbChars: MAX_THUMB_CHARS, side: THUMB_SIDE, qualities: THUMB_QUALITIES },
  );
}

/** The ids of the rows of `orderImages` with the given sent state (keys only: no picture is read). */
function imageIdsInPage(page: Page, sent: 0 | 1): Promise<string[]> {
  return page.evaluate(
    (sent) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('orderImages')
            .objectStore('orderImages')
            .index('sent')
            .getAllKeys(sent);
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result as string[]);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    sent,
  );
}

// --- 1. upload after coming online --------------------------------------------------------------------------------

export interface ImageUploadFigures {
  pictures: number;
  /** Bytes of one picture (all have the same size). */
  pictureBytes: number;
  /** From the network coming back to all pictures sent 1. */
  sinceOnlineMs: number;
  /** From the network coming back to the first POST assets. */
  firstUploadMs: number | null;
  posts: number;
  postMedianMs: number;
  failures: number;
  /** performance.memory.usedJSHeapSize (with --enable-precise-memory-info); null where the page has none. */
  pageHeapBeforeBytes: number | null;
  pageHeapPeakBytes: number | null;
  /** CDP Performance.getMetrics JSHeapUsedSize / JSHeapTotalSize. */
  cdpHeapBeforeBytes: number | null;
  cdpHeapPeakBytes: number | null;
  cdpHeapTotalPeakBytes: number | null;
  /** JSHeapUsedSize after the upload and a forced garbage collection. */
  cdpHeapAfterGcBytes: number | null;
  /** Resident memory of the page's renderer process (/proc VmRSS of the renderer CDP SystemInfo names). */
  rendererRssBeforeBytes: number | null;
  rendererRssPeakBytes: number | null;
}

/** The pids of renderer processes, from the browser's own process list; empty where it has none. */
async function rendererPids(browser: Browser): Promise<number[]> {
  let session: CDPSession | null = null;
  try {
    session = await browser.newBrowserCDPSession();
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    return processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  } catch {
    return [];
  } finally {
    await session?.detach().catch(() => undefined);
  }
}

function rssBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The largest renderer's resident memory: the page's, beside which a spare renderer is small. */
function largestRss(pids: number[]): number | null {
  const sizes = pids.map(rssBytes).filter((n): n is number => n !== null);
  return sizes.length ? Math.max(...sizes) : null;
}

async function cdpHeap(cdp: CDPSession): Promise<{ used: number; total: number } | null> {
  try {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value;
    const total = metrics.find((m) => m.name === 'JSHeapTotalSize')?.value;
    return used === undefined || total === undefined ? null : { used, total };
  } catch {
    return null;
  }
}

const pageHeap = (page: Page) =>
  page.evaluate(
    () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null,
  );

/**
 * Polls every `pollMs` until all `ids` have sent 1, sampling performance.memory meanwhile; answers the wall-clock
 * time the poll saw it and the peak heap, or throws after `timeoutMs`.
 */
function waitForUploadInPage(page: Page, ids: string[], pollMs: number, timeoutMs: number) {
  // No named functions in here: tsx would wrap them in a helper the page does not have.
  return page.evaluate(
    async ({ ids, pollMs, timeoutMs }) => {
      const wanted = new Set(ids);
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      let peak: number | null = null;
      try {
        const deadline = performance.now() + timeoutMs;
        for (;;) {
          // A fresh `performance.memory` each time: the object is a snapshot of the moment it was read.
          const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
          if (memory) peak = Math.max(peak ?? 0, memory.usedJSHeapSize);
          const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
            const request = db.transaction('orderImages').objectStore('orderImages').index('sent').getAllKeys(1);
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
          let sent = 0;
          for (const key of keys) if (wanted.has(key as string)) sent += 1;
          if (sent >= wanted.size) return { at: performance.timeOrigin + performance.now(), peak };
          if (performance.now() > deadline) throw new Error(`after ${timeoutMs} ms: ${sent} of ${wanted.size} sent`);
          await new Promise((resolve) => setTimeout(resolve, pollMs));
        }
      } finally {
        db.close();
      }
    },
    { ids, pollMs, timeoutMs },
  );
}

async function measureUpload(product: Product, browser: Browser, token: string): Promise<ImageUploadFigures> {
  const order = await wagonOrder(product, token);
  const context = await browser.newContext({ baseURL: product.url, viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`/orders/wagon/${order.id}/basedata`);
    await page.locator(`[data-key="${IN}.Waggonnummer"][value="21 81 2471 217-3"]`).waitFor({ timeout: 60_000 });
    // The order is on the device (pulled, sent): the scheduler uploads its pictures.
    await page.waitForFunction(() => performance.getEntriesByName('vers:pull').length > 0, null, { timeout: 60_000 });
    const user = await sessionUser(page);

    await context.setOffline(true);
    const ids: string[] = [];
    let pictureBytes = 0;
    const taken = Date.now() - UPLOADS * 60_000;
    for (let i = 0; i < UPLOADS; i++) {
      const png = randomPng();
      pictureBytes = png.length;
      const capturedDate = new Date(taken + i * 60_000).toISOString();
      const imageId = randomUUID();
      ids.push(imageId);
      const row: RowInNode = {
        imageId,
        orderId: order.id,
        tabName: 'basedata',
        name: `basedata-${capturedDate.replace(/[:.]/g, '-')}.png`,
        data: png.toString('base64'),
        size: png.length,
        capturedDate,
        sent: 0,
        toBeDeleted: 0,
        owner: user.id,
        ...(user.creator ? { creator: user.creator } : {}),
      };
      await addImagesInPage(page, row, [{ imageId, capturedDate }]);
    }
    const unsent = new Set(await imageIdsInPage(page, 0));
    if (!ids.every((id) => unsent.has(id))) throw new Error('not all pictures stored unsent');

    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
    const pids = await rendererPids(browser);
    const pageHeapBefore = await pageHeap(page);
    const cdpBefore = await cdpHeap(cdp);
    const rssBefore = largestRss(pids);

    const posts: { at: number }[] = [];
    const postTimes: number[] = [];
    let failures = 0;
    // The app's upload (POST assets/upload, a form with the kept Blob); POST assets (JSON) as other clients send it.
    const uploadPaths = new Set(['/api/v1/assets/upload', '/api/v1/assets']);
    const isPost = (method: string, url: string) => method === 'POST' && uploadPaths.has(new URL(url).pathname);
    page.on('request', (request) => {
      if (isPost(request.method(), request.url())) posts.push({ at: now() });
    });
    page.on('requestfinished', (request) => {
      if (!isPost(request.method(), request.url())) return;
      const timing = request.timing();
      if (timing.responseEnd >= 0) postTimes.push(timing.responseEnd);
    });
    page.on('response', (response) => {
      if (isPost(response.request().method(), response.url()) && !response.ok()) failures += 1;
    });
    page.on('requestfailed', (request) => {
      if (isPost(request.method(), request.url())) failures += 1;
    });

    // Node samples the renderer from outside (CDP, /proc) while the page polls IndexedDB and its own heap.
    let sampling = true;
    let cdpPeak: number | null = null;
    let cdpTotalPeak: number | null = null;
    let rssPeak: number | null = null;
    const sampler = (async () => {
      while (sampling) {
        const heap = await cdpHeap(cdp);
        if (heap) {
          cdpPeak = Math.max(cdpPeak ?? 0, heap.used);
          cdpTotalPeak = Math.max(cdpTotalPeak ?? 0, heap.total);
        }
        const rss = largestRss(pids);
        if (rss !== null) rssPeak = Math.max(rssPeak ?? 0, rss);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    })();

    const onlineAt = now();
    await context.setOffline(false);
    let done: { at: number; peak: number | null };
    try {
      done = await waitForUploadInPage(page, ids, POLL_MS, UPLOAD_TIMEOUT_MS);
    } finally {
      sampling = false;
      await sampler;
    }
    // What stays once the garbage is collected: the upload's own memory is then given back.
    await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
    const cdpAfter = await cdpHeap(cdp);
    const first = posts.find((post) => post.at >= onlineAt);
    return {
      pictures: UPLOADS,
      pictureBytes,
      sinceOnlineMs: done.at - onlineAt,
      firstUploadMs: first ? first.at - onlineAt : null,
      posts: posts.filter((post) => post.at >= onlineAt).length,
      postMedianMs: median(postTimes),
      failures,
      pageHeapBeforeBytes: pageHeapBefore,
      pageHeapPeakBytes: done.peak,
      cdpHeapBeforeBytes: cdpBefore?.used ?? null,
      cdpHeapPeakBytes: cdpPeak,
      cdpHeapTotalPeakBytes: cdpTotalPeak,
      cdpHeapAfterGcBytes: cdpAfter?.used ?? null,
      rendererRssBeforeBytes: rssBefore,
      rendererRssPeakBytes: rssPeak,
    };
  } finally {
    await context.close();
  }
}

// --- 2. the picture list ----------------------------------------------------------------------------------------

/**
 * Runs in every document of the list's context from its start: on each animation frame it checks whether the
 * list holds the 200 pictures (the product's list says so in its data-count; the plain page has 200 <img>) and every
 * <img> in the viewport is loaded (`complete`, with a size); then it awaits their decode() and one more frame.
 * Apart, when all 200 cards are in the page. The times, from navigation start, land in `window.__benchImages`. A string, so that tsx adds nothing to it.
 */
const READY_SCRIPT = `(() => {
  const plain = location.href === ${JSON.stringify(PLAIN_URL)};
  if (!plain && !location.pathname.startsWith('/images/')) return;
  const state = {};
  window.__benchImages = state;
  const selector = plain ? 'img' : '[data-testid="image-card"] img';
  const cardsAll = () => {
    if (document.querySelectorAll(selector).length >= ${LISTED}) state.allCards = performance.now();
    else requestAnimationFrame(cardsAll);
  };
  requestAnimationFrame(cardsAll);
  const check = () => {
    const images = Array.from(document.querySelectorAll(selector));
    // The product's list says how many pictures it holds before it has drawn them all (it draws the first screens
    // at once, the rest in slices); the plain page has them all in its HTML.
    const listed = plain ? images.length : Number(document.querySelector('[data-testid="images-list"]')?.dataset.count ?? 0);
    if (listed < ${LISTED}) return requestAnimationFrame(check);
    const visible = images.filter((img) => {
      const r = img.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
    });
    if (visible.length === 0 || !visible.every((img) => img.complete && img.naturalWidth > 0)) {
      return requestAnimationFrame(check);
    }
    state.loaded = performance.now();
    state.visible = visible.length;
    state.images = listed;
    Promise.all(visible.map((img) => img.decode().catch(() => undefined))).then(() =>
      requestAnimationFrame(() => { state.decoded = performance.now(); }),
    );
  };
  requestAnimationFrame(check);
})();`;

interface ListRun {
  loadedMs: number;
  /** When all 200 cards (the plain page: all its <img>) were in the page. */
  allCardsMs: number;
  decodedMs: number;
  visible: number;
  images: number;
  /** When the document's own bytes had arrived (navigation responseEnd). */
  responseEndMs: number;
}

async function timeList(page: Page, url: string): Promise<ListRun> {
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  await page.waitForFunction(
    () => {
      const state = (window as unknown as { __benchImages?: { decoded?: number; allCards?: number } }).__benchImages;
      return state?.decoded !== undefined && state.allCards !== undefined;
    },
    null,
    { timeout: 120_000, polling: 200 },
  );
  return page.evaluate(() => {
    const state = (window as unknown as { __benchImages: Record<string, number> }).__benchImages;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return {
      loadedMs: state.loaded!,
      allCardsMs: state.allCards!,
      decodedMs: state.decoded!,
      visible: state.visible!,
      images: state.images!,
      responseEndMs: navigation?.responseEnd ?? NaN,
    };
  });
}

/**
 * Reads the order's picture rows (thumbnails, and the PNGs as Blob references) from IndexedDB with the raw API:
 * what the list's query reads. The page must be the product's (another origin has no such store).
 */
function readRowsInPage(page: Page, orderId: string): Promise<{ ms: number; rows: number }> {
  return page.evaluate(async (orderId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('versdb');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      const started = performance.now();
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction('orderImages').objectStore('orderImages').index('orderId').getAll(orderId);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      return { ms: performance.now() - started, rows: rows.length };
    } finally {
      db.close();
    }
  }, orderId);
}

/** The plain page: the same 200 full PNG data URLs, in the same order, in plain <img> in a grid like the list's. */
function plainPage(pictures: string[]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>plain</title><style>
body { margin: 0; padding: 16px; font-family: sans-serif; }
main { display: grid; gap: 16px; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); }
img { width: 100%; height: 160px; object-fit: cover; display: block; }
</style></head><body><main id="list"></main><script>
const pictures = ${JSON.stringify(pictures)};
const list = document.getElementById('list');
for (let i = 0; i < ${LISTED}; i++) {
  const img = document.createElement('img');
  img.alt = 'picture ' + i;
  img.src = 'data:image/png;base64,' + pictures[i % pictures.length];
  list.appendChild(img);
}
</script></body></html>`;
}

export interface ImageListFigures {
  pictures: number;
  distinct: number;
  runs: number;
  /** Medians, ms from navigation start. */
  versLoadedMs: number;
  versAllCardsMs: number;
  versDecodedMs: number;
  versVisible: number;
  plainLoadedMs: number;
  plainAllCardsMs: number;
  plainDecodedMs: number;
  plainVisible: number;
  /** The plain page's 28 MB of HTML arriving through the test harness, included in its times. */
  plainResponseEndMs: number;
  /** One raw getAll of the order's 200 rows (thumbnails; PNGs as Blob references) from IndexedDB, in the product's page. */
  readRowsMs: number;
  versRuns: number[];
  plainRuns: number[];
}

async function measureList(product: Product, browser: Browser, token: string): Promise<ImageListFigures> {
  const order = await wagonOrder(product, token);
  const pngs = Array.from({ length: DISTINCT }, () => randomPng());
  // The pictures are on the server too, as sent ones are: else opening the list would drop them (refreshImages).
  const assetIds: string[] = [];
  for (const [i, png] of pngs.entries()) {
    const asset = await api<{ id: string }>(product, token, 'POST', 'assets', {
      id: randomUUID(),
      type: 'PICTURE',
      filename: `bench-${i}.png`,
      base64: png.toString('base64'),
      size: png.length,
      orderId: order.id,
    });
    assetIds.push(asset.id);
  }

  const context = await browser.newContext({ baseURL: product.url, viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await signIn(page);
    const user = await sessionUser(page);
    const newest = Date.now();
    for (const [d, png] of pngs.entries()) {
      // Newest first on the list: picture i (of capture time newest - i minutes) is pngs[i % DISTINCT].
      const copies: { imageId: string; capturedDate: string }[] = [];
      for (let i = d; i < LISTED; i += DISTINCT) {
        copies.push({ imageId: randomUUID(), capturedDate: new Date(newest - i * 60_000).toISOString() });
      }
      const row: RowInNode = {
        imageId: '',
        orderId: order.id,
        tabName: 'basedata',
        name: `bench-${d}.png`,
        data: png.toString('base64'),
        size: png.length,
        capturedDate: '',
        sent: 1,
        toBeDeleted: 0,
        assetId: assetIds[d]!,
        owner: user.id,
        ...(user.creator ? { creator: user.creator } : {}),
      };
      await addImagesInPage(page, row, copies);
    }
    const html = plainPage(pngs.map((png) => png.toString('base64')));
    await context.route(PLAIN_URL, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
    await context.addInitScript({ content: READY_SCRIPT });

    const versUrl = `${product.url}/images/${order.id}`;
    const vers: ListRun[] = [];
    const plain: ListRun[] = [];
    // One warm-up each (not counted), then the runs alternate.
    const warm = await timeList(page, versUrl);
    if (warm.images !== LISTED) throw new Error(`${warm.images} image cards, expected ${LISTED}`);
    // The floor, read on the product's page (the list open) before any plain page.
    const reads: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const read = await readRowsInPage(page, order.id);
      if (read.rows !== LISTED) throw new Error(`${read.rows} rows read, expected ${LISTED}`);
      reads.push(read.ms);
    }
    await timeList(page, PLAIN_URL);
    for (let run = 0; run < RUNS; run++) {
      vers.push(await timeList(page, versUrl));
      plain.push(await timeList(page, PLAIN_URL));
    }
    if (process.env.BENCH_TRACE_FILE) {
      await browser.startTracing(page, {
        categories: [...TIMELINE_CATEGORIES, 'v8.execute', 'disabled-by-default-v8.cpu_profiler'],
      });
      await timeList(page, versUrl);
      (await import('node:fs')).writeFileSync(process.env.BENCH_TRACE_FILE, await browser.stopTracing());
    }
    return {
      pictures: LISTED,
      readRowsMs: median(reads),
      distinct: DISTINCT,
      runs: RUNS,
      versLoadedMs: median(vers.map((r) => r.loadedMs)),
      versAllCardsMs: median(vers.map((r) => r.allCardsMs)),
      versDecodedMs: median(vers.map((r) => r.decodedMs)),
      versVisible: median(vers.map((r) => r.visible)),
      plainLoadedMs: median(plain.map((r) => r.loadedMs)),
      plainAllCardsMs: median(plain.map((r) => r.allCardsMs)),
      plainDecodedMs: median(plain.map((r) => r.decodedMs)),
      plainVisible: median(plain.map((r) => r.visible)),
      plainResponseEndMs: median(plain.map((r) => r.responseEndMs)),
      versRuns: vers.map((r) => r.decodedMs),
      plainRuns: plain.map((r) => r.decodedMs),
    };
  } finally {
    await context.close();
  }
}

// --- both -------------------------------------------------------------------------------------------------------

export interface ImagesFigures {
  upload: ImageUploadFigures;
  list: ImageListFigures;
}

export async function measureImages(product: Product): Promise<ImagesFigures> {
  const token = await apiToken(product);
  const browser = await launchBrowser(['--enable-precise-memory-info']);
  try {
    const upload = await measureUpload(product, browser, token);
    const list = await measureList(product, browser, token);
    return { upload, list };
  } finally {
    await browser.close();
  }
}

export function imagesSection({ upload: u, list: l }: ImagesFigures): Section {
  const mb = (bytes: number | null) => (bytes === null ? NaN : bytes / 1e6);
  const total = u.pictures * u.pictureBytes;
  const heap = (name: string, peak: number | null, before: number | null) => ({
    name,
    value: mb(peak),
    unit: 'MB',
    digits: 0,
    baseline: { name: 'before', value: mb(before) },
  });
  return {
    id: 'images',
    title: `pictures: ${u.pictures} uploads of ${(u.pictureBytes / 1e6).toFixed(1)} MB after coming online, a list of ${l.pictures}`,
    figures: [
      {
        name: 'upload all pictures after coming online',
        value: u.sinceOnlineMs,
        unit: 'ms',
        digits: 0,
        note:
          `${(total / 1e6 / (u.sinceOnlineMs / 1000)).toFixed(1)} MB/s, ${u.posts} POSTs` +
          (u.failures > 0 ? `, ${u.failures} FAILED` : ''),
      },
      {
        name: 'first POST assets after the network came back',
        value: u.firstUploadMs ?? NaN,
        unit: 'ms',
        digits: 0,
      },
      { name: 'POST assets, median', value: u.postMedianMs, unit: 'ms', digits: 0 },
      heap('upload: peak JS heap (performance.memory)', u.pageHeapPeakBytes, u.pageHeapBeforeBytes),
      heap('upload: peak CDP JSHeapUsedSize', u.cdpHeapPeakBytes, u.cdpHeapBeforeBytes),
      { name: 'upload: peak CDP JSHeapTotalSize', value: mb(u.cdpHeapTotalPeakBytes), unit: 'MB', digits: 0 },
      {
        name: 'upload: JS heap after it and a garbage collection',
        value: mb(u.cdpHeapAfterGcBytes),
        unit: 'MB',
        digits: 0,
      },
      heap('upload: peak renderer RSS', u.rendererRssPeakBytes, u.rendererRssBeforeBytes),
      {
        name: 'picture list until the ones in the viewport are loaded and decoded',
        value: l.versDecodedMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'plain page of <img> of the same full PNGs', value: l.plainDecodedMs },
        aim: { text: 'ratio <= 0.5x', met: l.versDecodedMs <= 0.5 * l.plainDecodedMs },
        note: `${l.versVisible} in the viewport (plain page: ${l.plainVisible})`,
      },
      {
        name: 'picture list until loaded (complete)',
        value: l.versLoadedMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'plain page', value: l.plainLoadedMs },
      },
      {
        name: 'picture list until all 200 cards are in the page',
        value: l.versAllCardsMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'plain page (its HTML holds them all)', value: l.plainAllCardsMs },
        note: 'the list draws one tablet screen of cards (12) at once and the rest in slices between frames',
      },
      {
        name: 'picture list: reading its rows from IndexedDB (thumbnails; PNGs as Blob references)',
        value: l.readRowsMs,
        unit: 'ms',
        digits: 0,
      },
    ],
    notes: [
      `list: median of ${l.runs}; runs VERS ${l.versRuns.map((ms) => ms.toFixed(0)).join('/')} ms, plain ` +
        `${l.plainRuns.map((ms) => ms.toFixed(0)).join('/')} ms; the plain page's HTML (${l.distinct} distinct ` +
        `pictures inline) arrived after ${l.plainResponseEndMs.toFixed(0)} ms, included in its times`,
    ],
  };
}
