// Orders in Chromium, each against a baseline in the same page: opening an order with 5,000 activities against
// reading its 5,000 rows from IndexedDB; saving one edit locally (p95); pulling 10,000 activities into IndexedDB
// against one bulk put of the same rows. Figures are printed, never asserted.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, serviceWorkerReady } from '../../e2e/support/browser.ts';
import { E2E_PASSWORD, type RunningProduct as Product } from '../../e2e/support/server.ts';
import type { Section } from './figures.ts';
import { apiToken, wagonOrder } from './product-api.ts';
import { type ProcessCost, costNote, costSince, threadCost } from './process-time.ts';
import { IN, OUT } from './wagon-keys.ts';

/** How often the server's thread is read during a pull. */
const SERVER_SAMPLE_MS = 20;

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

/** The trace categories of the main thread's tasks and the page's User Timing marks (Chromium's performance panel). */
export const TIMELINE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
] as const;

/**
 * One bulk put of an order's rows into a scratch database with the store's indexes: the floor any pull has to pay for
 * writing them. With the app's durability ('strict': the app's transactions complete only once on disk, versdb.ts),
 * or the browser's default ('relaxed') for comparison.
 */
function bulkPutInPage(
  page: Page,
  orderId: string,
  durability: 'strict' | 'relaxed',
): Promise<{ ms: number; rows: number }> {
  return page.evaluate(
    ({ id, durability }) =>
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
              const tx = scratch.result.transaction('orderResults', 'readwrite', { durability });
              for (const row of rows) tx.objectStore('orderResults').put(row);
              tx.oncomplete = () => resolve({ ms: performance.now() - started, rows: rows.length });
              tx.onerror = () => reject(tx.error);
            };
          };
        };
      }),
    { id: orderId, durability },
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

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's own time (CPU) in the event, microseconds. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Per edit, in the page's clock (performance.now()): when typing began, when Tab was pressed, when it ended. */
interface EditWindow {
  typed: number;
  tab: number;
  committed: number;
  shown: number;
}

const rendererMainThreads = (events: readonly TraceEvent[]) =>
  new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );

/**
 * Edits typed into one field and left with Tab, as a user does, 'count' times on the open order, under a Chromium
 * trace. Per edit: the save, from the Tab key's event time to the commit of the edit's IndexedDB transaction (the end
 * of the editor's 'vers:edit' measure); the editor's own part of it (from the field's write to the commit); and the
 * main thread's longest task from the Tab key until the editor shows the stored edit and two frames passed (the
 * re-render and its frame), beside the longest task while the value was typed (the field's own render).
 */
async function measureEdits(browser: Browser, page: Page, count: number) {
  const field = page.locator(`[data-key="${OUT}.Halterkurzkennzeichen"]`);
  const shownRows = () =>
    page.evaluate(
      () => (performance.getEntriesByName('vers:order-shown').at(-1) as PerformanceMark | undefined)?.detail?.rows ?? 0,
    );
  await page.evaluate(() => {
    performance.clearMeasures('vers:edit');
    const tabs: number[] = [];
    (window as unknown as { benchTabs: number[] }).benchTabs = tabs;
    addEventListener('keydown', (event) => event.key === 'Tab' && tabs.push(event.timeStamp), true);
  });
  let rows = await shownRows();
  const typed: number[] = [];
  const shown: number[] = [];
  await browser.startTracing(page, {
    categories: [
      ...TIMELINE_CATEGORIES,
      ...(process.env.BENCH_CPU_PROFILE ? ['disabled-by-default-v8.cpu_profiler'] : []),
    ],
  });
  for (let i = 0; i < count; i++) {
    typed.push(await page.evaluate(() => performance.mark('bench:typing').startTime));
    await field.fill(`D-${i}`);
    await field.press('Tab');
    await page.waitForFunction((n) => performance.getEntriesByName('vers:edit').length >= n, i + 1);
    rows += await page.evaluate(
      (n) => ((performance.getEntriesByName('vers:edit')[n] as PerformanceMeasure).detail as { rows: number }).rows,
      i,
    );
    // The editor shows a fold holding the edit; then two frames, so its rendering is in the trace.
    shown.push(
      await page.evaluate(
        (expected) =>
          // (No named functions in here: the bench's compiler would wrap them in a helper the page lacks.)
          new Promise<number>((resolve) => {
            const poll = setInterval(() => {
              const mark = performance
                .getEntriesByName('vers:order-shown')
                .find((entry) => ((entry as PerformanceMark).detail as { rows: number }).rows >= expected);
              if (!mark) return;
              clearInterval(poll);
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(mark.startTime)));
            }, 2);
          }),
        rows,
      ),
    );
  }
  const end = await page.evaluate(() => performance.mark('bench:typing').startTime);
  const traced = await browser.stopTracing();
  if (process.env.BENCH_TRACE_FILE) (await import('node:fs')).writeFileSync(process.env.BENCH_TRACE_FILE, traced);
  const trace = JSON.parse(traced.toString()) as { traceEvents: TraceEvent[] };
  const { tabs, commits, own } = await page.evaluate(() => {
    const measures = performance.getEntriesByName('vers:edit');
    return {
      tabs: (window as unknown as { benchTabs: number[] }).benchTabs,
      commits: measures.map((m) => m.startTime + m.duration),
      own: measures.map((m) => m.duration),
    };
  });
  if (tabs.length !== count || commits.length !== count) {
    throw new Error(`edits: ${count} typed, ${tabs.length} Tab keys seen, ${commits.length} saves measured`);
  }
  const windows: EditWindow[] = typed.map((at, i) => ({
    typed: at,
    tab: tabs[i]!,
    committed: commits[i]!,
    shown: shown[i]!,
  }));

  // The trace's clock (microseconds) against the page's: the marks are in both.
  const events = trace.traceEvents;
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && e.name === 'bench:typing');
  const main = rendererMainThreads(events);
  const markThread = marks.map((e) => `${e.pid}:${e.tid}`).find((thread) => main.has(thread));
  const pageTimes = [...typed, end];
  if (!markThread || marks.length !== pageTimes.length) {
    throw new Error(`trace: ${marks.length} of ${pageTimes.length} marks, main thread ${markThread ?? 'not found'}`);
  }
  const offset = median(marks.map((e, i) => e.ts / 1000 - pageTimes[i]!));
  const tasks = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === markThread)
    .map((e) => ({ start: e.ts / 1000 - offset, ms: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000 }));
  const within = (from: number, to: number) => tasks.filter((t) => t.start + t.ms > from && t.start < to);
  // The longest task by the main thread's CPU time, and by wall time (which includes waiting for a core).
  const longest = (from: number, to: number, by: 'cpu' | 'ms') =>
    within(from, to).reduce((most, t) => Math.max(most, t[by]), 0);
  return {
    saveMs: windows.map((w) => w.committed - w.tab),
    saveCpuMs: windows.map((w) => within(w.tab, w.committed).reduce((sum, t) => sum + t.cpu, 0)),
    ownMs: own,
    frameCpuMs: windows.map((w, i) => longest(w.tab, pageTimes[i + 1]!, 'cpu')),
    frameWallMs: windows.map((w, i) => longest(w.tab, pageTimes[i + 1]!, 'ms')),
    typingCpuMs: windows.map((w) => longest(w.typed, w.tab, 'cpu')),
    shownMs: windows.map((w) => w.shown - w.tab),
  };
}

async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill('staff');
  await page.getByTestId('login-password').fill(E2E_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu').waitFor();
}

const WAGON_NUMBER_SHOWN = `[data-key="${IN}.Waggonnummer"][value="21 81 2471 217-3"]`;
const wagonNumberShown = (page: Page) => page.locator(WAGON_NUMBER_SHOWN).waitFor({ timeout: 60_000 });

/**
 * Times the next opening in the page: from the press on the order's row (pointerdown) until the editor's first tab
 * shows the wagon number (a MutationObserver sees it the moment it is in the page). Read with `openedInPage` once
 * the test driver has seen it too. The driver's own wait polls the page with growing pauses, which added up to
 * ~450 ms to about half of the openings (bimodal: ~480 or ~930 ms for the same page).
 */
function watchOpeningInPage(page: Page): Promise<void> {
  return page.evaluate((shown) => {
    const times: { pressed?: number; shown?: number } = {};
    (window as unknown as { __versOpening: typeof times }).__versOpening = times;
    document.addEventListener('pointerdown', () => (times.pressed = performance.now()), { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (times.shown !== undefined || !document.querySelector(shown)) return;
      times.shown = performance.now();
      observer.disconnect();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  }, WAGON_NUMBER_SHOWN);
}

function openedInPage(page: Page): Promise<number> {
  return page.evaluate(() => {
    const times = (window as unknown as { __versOpening: { pressed?: number; shown?: number } }).__versOpening;
    if (times.pressed === undefined || times.shown === undefined) throw new Error('the opening was not seen');
    return times.shown - times.pressed;
  });
}

export interface BrowserOrderFigures {
  openMs: number;
  readMs: number;
  /** From the Tab key that leaves the field to the edit's committed transaction. */
  saveP95Ms: number;
  saveMedianMs: number;
  /** The editor's part: from the field's write to the commit. */
  saveOwnP95Ms: number;
  saves: number;
  /** Main-thread CPU time in the tasks from the Tab key to the commit. */
  saveCpuP95Ms: number;
  /** The main thread's longest task (CPU time) from the Tab key to the edit shown (the re-render and its frame). */
  frameP95Ms: number;
  frameMedianMs: number;
  /** The same by wall time: on a busy machine it includes waiting for a core. */
  frameWallP95Ms: number;
  /** The longest task (CPU time) while the value is typed into the field (the field's own render). */
  typingP95Ms: number;
  /** From the Tab key until the editor shows a fold holding the edit. */
  shownP95Ms: number;
  rawStrictP95Ms: number;
  rawRelaxedP95Ms: number;
  pullMs: number;
  pullRows: number;
  /** The pull's parts: the server's answer (fetched and checked), and the merge into IndexedDB. */
  pullFetchMs: number;
  pullMergeMs: number;
  /** Of the fetch: until the answer's last byte arrived (server and network); null without Resource Timing. */
  pullResponseMs: number | null;
  /** What the server's thread ran and waited for a CPU until then (sampled), null when not sampled. */
  pullServerCost: ProcessCost | null;
  /** Each pull's time and its merge's, ms. */
  pullRuns: string[];
  bulkPutMs: number;
  /** The same with the browser's default durability. */
  bulkPutRelaxedMs: number;
}

export async function measureBrowserOrders(product: Product): Promise<BrowserOrderFigures> {
  const token = await apiToken(product);
  const medium = await wagonOrder(product, token, 5000);
  const large = await wagonOrder(product, token, 10_000);

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
      await watchOpeningInPage(page);
      await row.click();
      await wagonNumberShown(page);
      opens.push(await openedInPage(page));
    }

    const edits = await measureEdits(browser, page, 40);
    const rawStrictP95 = await rawPutP95InPage(page, 'strict', 40);
    const rawRelaxedP95 = await rawPutP95InPage(page, 'relaxed', 40);

    // Pulling: a fresh browser profile opens the 10,000-activity order; three profiles, the run of median time (the
    // bulk put it is compared with is a median of three too).
    type Pull = {
      ms: number;
      rows: number;
      fetchMs: number;
      mergeMs: number;
      responseMs: number | null;
      serverCost: ProcessCost | null;
    };
    const pulls: Pull[] = [];
    let second: Page | undefined;
    for (let run = 0; run < 3; run++) {
      const fresh = await browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 800 } });
      second = await fresh.newPage();
      await signIn(second);
      // The service worker's first install (it compiles and caches every chunk of the app) runs from the sign-in
      // screen, while a person types; the bench signs in at once, and its install took a core beside the pull
      // (~1.5x on the merge). Waited for, as a person's typing would.
      await serviceWorkerReady(second);
      // The server's thread, read every 20 ms: its CPU and run-queue wait while it answered the pull (on these 2
      // cores the server shares the CPUs with the browser that starts the page).
      const serverReadings: { at: number; cost: ProcessCost }[] = [];
      const reading = () => serverReadings.push({ at: Date.now(), cost: threadCost(product.pid) });
      const sampler = setInterval(reading, SERVER_SAMPLE_MS);
      reading();
      const measured = await (async () => {
        try {
          await second.goto(`/orders/wagon/${large.id}/basedata`);
          await second.waitForFunction(
            () =>
              performance
                .getEntriesByName('vers:pull')
                .some((e) => ((e as PerformanceMeasure).detail as { rows: number }).rows >= 10_000),
            null,
            // Not at every frame (the default): the check would run beside the pull it measures.
            { timeout: 120_000, polling: 100 },
          );
          return second.evaluate(() => {
            const entry = performance
              .getEntriesByName('vers:pull')
              .find((e) => ((e as PerformanceMeasure).detail as { rows: number }).rows >= 10_000) as PerformanceMeasure;
            const detail = entry.detail as { rows: number; fetchMs: number; mergeMs: number; responseMs?: number };
            return {
              ms: entry.duration,
              rows: detail.rows,
              fetchMs: detail.fetchMs,
              mergeMs: detail.mergeMs,
              responseMs: detail.responseMs ?? null,
              startedAt: performance.timeOrigin + entry.startTime,
            };
          });
        } finally {
          clearInterval(sampler);
        }
      })();
      reading();
      const { startedAt, ...figures } = measured;
      const answered = startedAt + (figures.responseMs ?? figures.fetchMs);
      const before = serverReadings.findLast((r) => r.at <= startedAt);
      const after = serverReadings.find((r) => r.at >= answered);
      pulls.push({ ...figures, serverCost: before && after ? costSince(before.cost, after.cost) : null });
      if (run < 2) await fresh.close();
    }
    const pull = [...pulls].sort((a, b) => a.ms - b.ms)[1]!;
    const puts: number[] = [];
    const relaxedPuts: number[] = [];
    for (let run = 0; run < 3; run++) {
      puts.push((await bulkPutInPage(second!, large.id, 'strict')).ms);
      relaxedPuts.push((await bulkPutInPage(second!, large.id, 'relaxed')).ms);
    }

    return {
      openMs: median(opens),
      readMs: median(reads),
      saveP95Ms: percentile(edits.saveMs, 95),
      saveMedianMs: median(edits.saveMs),
      saveOwnP95Ms: percentile(edits.ownMs, 95),
      saves: edits.saveMs.length,
      saveCpuP95Ms: percentile(edits.saveCpuMs, 95),
      frameP95Ms: percentile(edits.frameCpuMs, 95),
      frameMedianMs: median(edits.frameCpuMs),
      frameWallP95Ms: percentile(edits.frameWallMs, 95),
      typingP95Ms: percentile(edits.typingCpuMs, 95),
      shownP95Ms: percentile(edits.shownMs, 95),
      rawStrictP95Ms: rawStrictP95,
      rawRelaxedP95Ms: rawRelaxedP95,
      pullMs: pull.ms,
      pullRows: pull.rows,
      pullFetchMs: pull.fetchMs,
      pullMergeMs: pull.mergeMs,
      pullResponseMs: pull.responseMs,
      pullServerCost: pull.serverCost,
      pullRuns: pulls.map((run) => `${Math.round(run.ms)} (merge ${Math.round(run.mergeMs)})`),
      bulkPutMs: median(puts),
      bulkPutRelaxedMs: median(relaxedPuts),
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
        name: 'open an order of 5,000 activities: from the press on its row until its first tab shows, in the page',
        value: f.openMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'reading its rows from IndexedDB', value: f.readMs },
        aim: { text: 'ratio <= 5x', met: f.openMs / f.readMs <= 5 },
        note: 'median of 5; timed in the page (pointerdown to a MutationObserver seeing the wagon number)',
      },
      {
        name: 'save one edit locally, p95, from the Tab key to the committed IndexedDB transaction',
        value: f.saveP95Ms,
        unit: 'ms',
        digits: 1,
        baseline: { name: 'one raw durable (strict) IndexedDB put, p95', value: f.rawStrictP95Ms },
        aim: { text: '< 16 ms', met: f.saveP95Ms < 16 },
        note: `over ${f.saves} edits on the order of 5,000 activities; wall time`,
      },
      { name: 'save one edit locally, median', value: f.saveMedianMs, unit: 'ms', digits: 1 },
      {
        name: "save one edit locally, p95, the editor's part (from the field's write to the commit)",
        value: f.saveOwnP95Ms,
        unit: 'ms',
        digits: 1,
      },
      { name: 'one raw relaxed IndexedDB put, p95', value: f.rawRelaxedP95Ms, unit: 'ms', digits: 1 },
      {
        name: 'save one edit locally, p95, main-thread CPU time from the Tab key to the commit',
        value: f.saveCpuP95Ms,
        unit: 'ms',
        digits: 1,
      },
      {
        name: 'frame after an edit, p95: longest main-thread task (CPU time) from the Tab key until the edit is shown',
        value: f.frameP95Ms,
        unit: 'ms',
        digits: 1,
        baseline: { name: 'longest task while typing into the field, p95', value: f.typingP95Ms },
        aim: { text: '< 16 ms', met: f.frameP95Ms < 16 },
        note: `median ${f.frameMedianMs.toFixed(1)} ms; by wall time p95 ${f.frameWallP95Ms.toFixed(1)} ms; Chromium trace`,
      },
      { name: 'edit shown, p95, from the Tab key', value: f.shownP95Ms, unit: 'ms', digits: 1 },
      {
        name: 'pull an order of 10,000 activities into IndexedDB',
        value: f.pullMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'one durable (strict) bulk put of its rows', value: f.bulkPutMs },
        aim: { text: 'ratio <= 1.3x', met: f.pullMs / f.bulkPutMs <= 1.3 },
        note: `${f.pullRows} rows; runs ${f.pullRuns.join(', ')} ms`,
      },
      {
        name: 'pull of 10,000 activities, its part: the server answer fetched and checked',
        value: f.pullFetchMs,
        unit: 'ms',
        digits: 0,
        ...(f.pullResponseMs !== null
          ? {
              note:
                `of which ${Math.round(f.pullResponseMs)} ms until the answer's last byte arrived (server and network); the rest is the browser parsing and checking it` +
                (f.pullServerCost
                  ? `; the server's thread until then (read every ${SERVER_SAMPLE_MS} ms): ${costNote(f.pullServerCost)}`
                  : ''),
            }
          : {}),
      },
      {
        name: 'one bulk put of its rows, relaxed durability (the browser default; the app writes strict)',
        value: f.bulkPutRelaxedMs,
        unit: 'ms',
        digits: 0,
      },
      {
        name: 'pull of 10,000 activities, its part: the merge into IndexedDB',
        value: f.pullMergeMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'one durable (strict) bulk put of its rows', value: f.bulkPutMs },
        aim: { text: 'ratio <= 1.3x', met: f.pullMergeMs / f.bulkPutMs <= 1.3 },
      },
    ],
    notes: [
      'openings: median of 5, after a first visit pulled the rows; pull: the run of median time of 3 fresh profiles, each opening the order once its service worker has installed; bulk puts: median of 3, strict and relaxed taking turns',
    ],
  };
}
