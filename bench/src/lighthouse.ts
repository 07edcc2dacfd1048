// Lighthouse 12 (performance and accessibility) on Debian's Chromium: the login screen on a first visit (storage
// reset, as Lighthouse does by default), then the order list signed in as `staff`. The sign-in happens with
// playwright in the same browser profile, so Lighthouse's tab finds the session (localStorage, IndexedDB) and the
// service worker; for that run Lighthouse keeps the storage (disableStorageReset).
// Desktop settings (Lighthouse's desktop config: 1350x940, no mobile emulation) and its default throttling method,
// 'simulate': the page loads unthrottled and Lantern computes the metrics for a dense 4G link (40 ms RTT,
// 10 Mbit/s) and a CPU slowdown of 1x, so the scores depend on this machine's CPU and its load.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { type Flags, type Result, desktopConfig } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../e2e/support/browser.ts';
import { E2E_PASSWORD, type RunningProduct } from '../../e2e/support/server.ts';
import type { Figure, Section } from './figures.ts';

export const LIGHTHOUSE_THROTTLING = 'simulate (Lantern), desktop dense 4G: 40 ms RTT, 10 Mbit/s, CPU 1x';

const METRICS = [
  ['first-contentful-paint', 'first contentful paint'],
  ['largest-contentful-paint', 'largest contentful paint'],
  ['speed-index', 'speed index'],
  ['total-blocking-time', 'total blocking time'],
] as const;

export interface LighthousePage {
  page: 'login screen' | 'order list';
  url: string;
  /** Scores 0-100; NaN where Lighthouse could not score the category. */
  performance: number;
  accessibility: number;
  metricsMs: Record<(typeof METRICS)[number][0], number>;
  cumulativeLayoutShift: number;
  /** The accessibility audits that failed, by title. */
  accessibilityFailures: string[];
  warnings: string[];
  /** The performance score of every run, in order; the figures above are the median run's. */
  performanceRuns: number[];
  /** The machine's 1-minute load average as each run began. */
  loadAverages: number[];
}

/** Runs per page: the figures are the run of median performance score (scores move with the machine's load). */
export const LIGHTHOUSE_RUNS = 3;

/** The run of median performance score, with every run's score and the load average beside it. */
function medianRun(runs: { figures: LighthousePage; load: number }[]): LighthousePage {
  const sorted = [...runs].sort((a, b) => a.figures.performance - b.figures.performance);
  const median = sorted[Math.floor(sorted.length / 2)]!.figures;
  return {
    ...median,
    performanceRuns: runs.map((run) => run.figures.performance),
    loadAverages: runs.map((run) => run.load),
  };
}

export interface LighthouseFigures {
  lighthouse: string;
  chromium: string;
  pages: LighthousePage[];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function pageFigures(page: LighthousePage['page'], lhr: Result): LighthousePage {
  const score = (id: string) => (lhr.categories[id]?.score ?? NaN) * 100;
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const accessibilityFailures = (lhr.categories.accessibility?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
    .map((audit) => audit!.title);
  return {
    page,
    url: lhr.finalDisplayedUrl,
    performance: score('performance'),
    accessibility: score('accessibility'),
    metricsMs: Object.fromEntries(METRICS.map(([id]) => [id, numeric(id)])) as LighthousePage['metricsMs'],
    cumulativeLayoutShift: numeric('cumulative-layout-shift'),
    accessibilityFailures,
    warnings: [...lhr.runWarnings, ...(lhr.runtimeError ? [lhr.runtimeError.message] : [])],
    performanceRuns: [],
    loadAverages: [],
  };
}

export async function measureLighthouse(product: RunningProduct): Promise<LighthouseFigures> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), 'vers-lighthouse-'));
  // A persistent context: its pages live in the browser's default context, where Lighthouse opens its tab, so
  // both share one profile. The flags are launchBrowser's (e2e/support/browser.ts) plus the debugging port.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1350, height: 940 },
    args: [`--remote-debugging-port=${port}`, ...CHROMIUM_FLAGS],
  });
  try {
    const flags: Flags = {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    };
    const auditOnce = async (page: LighthousePage['page'], url: string, keepStorage: boolean) => {
      const load = loadavg()[0] ?? NaN;
      const result = await lighthouse(url, { ...flags, disableStorageReset: keepStorage }, desktopConfig);
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      return { lhr: result.lhr, figures: pageFigures(page, result.lhr), load };
    };
    const audit = async (page: LighthousePage['page'], url: string, keepStorage: boolean) => {
      const runs = [];
      for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await auditOnce(page, url, keepStorage));
      return { lhr: runs[0]!.lhr, figures: medianRun(runs) };
    };
    const login = await audit('login screen', `${product.url}/login`, false);

    const page = await context.newPage();
    await page.goto(`${product.url}/login`);
    await page.getByTestId('login-username').fill('staff');
    await page.getByTestId('login-password').fill(E2E_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('menu').waitFor();
    await page.goto(`${product.url}/orders`);
    await page.waitForLoadState('networkidle');
    await page.close();
    const orders = await audit('order list', `${product.url}/orders`, true);
    if (new URL(orders.figures.url).pathname !== '/orders') {
      throw new Error(`Lighthouse's order list run ended on ${orders.figures.url}: the session was not kept`);
    }
    return {
      lighthouse: login.lhr.lighthouseVersion,
      chromium: login.lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'unknown',
      pages: [login.figures, orders.figures],
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

export function lighthouseSections(f: LighthouseFigures): Section[] {
  const settings = `Lighthouse ${f.lighthouse}, ${f.chromium}, desktop, throttling ${LIGHTHOUSE_THROTTLING}`;
  const scores: Figure[] = f.pages.flatMap((p) => [
    {
      name: `${p.page}: performance`,
      value: p.performance,
      unit: 'points',
      digits: 0,
      higherIsBetter: true,
      aim: { text: '>= 95', met: p.performance >= 95 },
      note:
        `median of ${p.performanceRuns.length}: ${p.performanceRuns.map((x) => Math.round(x)).join(', ')}; ` +
        `1-min load ${p.loadAverages.map((x) => x.toFixed(1)).join(', ')}`,
    },
    {
      name: `${p.page}: accessibility`,
      value: p.accessibility,
      unit: 'points',
      digits: 0,
      higherIsBetter: true,
      ...(p.accessibilityFailures.length ? { note: `failed: ${p.accessibilityFailures.join('; ')}` } : {}),
    },
  ]);
  const metrics: Figure[] = f.pages.flatMap((p) => [
    ...METRICS.map(([id, label]) => ({ name: `${p.page}: ${label}`, value: p.metricsMs[id], unit: 'ms', digits: 0 })),
    { name: `${p.page}: cumulative layout shift`, value: p.cumulativeLayoutShift, unit: '', digits: 3 },
  ]);
  const warnings = f.pages.flatMap((p) => p.warnings.map((w) => `${p.page}: Lighthouse warned: ${w}`));
  return [
    {
      id: 'lighthouse-scores',
      title: 'Lighthouse scores (0-100)',
      figures: scores,
      chart: true,
      notes: [
        `${settings}; login screen: first visit, storage reset; order list: signed in as staff, storage and ` +
          'service worker kept',
        ...warnings,
      ],
    },
    { id: 'lighthouse-metrics', title: 'Lighthouse metrics (simulated)', figures: metrics, notes: [settings] },
  ];
}
