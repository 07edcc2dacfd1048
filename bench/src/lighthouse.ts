// Lighthouse 12 (performance and accessibility) on Debian's Chromium: the login screen on a first visit (storage
// reset, as Lighthouse does by default), then the order list signed in as `staff`. The sign-in happens with
// playwright in the same browser profile, so Lighthouse's tab finds the session (localStorage, IndexedDB) and the
// service worker; for that run Lighthouse keeps the storage (disableStorageReset).
// Two presets, each with Lighthouse's default throttling method, 'simulate': the page loads unthrottled and Lantern
// computes the metrics for a given link and CPU slowdown, so the scores depend on this machine's CPU and its load.
// - desktop (Lighthouse's desktop config): 1350x940, no mobile emulation, dense 4G (40 ms RTT, 10 Mbit/s), CPU 1x;
// - mobile (Lighthouse's default config): a Moto G Power screen (412x823), slow 4G (150 ms RTT, 1.6 Mbit/s) and a
//   CPU slowdown of 4x.
// VERS_LIGHTHOUSE_JSON=<folder> keeps every run's full Lighthouse report there as JSON.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { type Config, type Flags, type Result, desktopConfig } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../e2e/support/browser.ts';
import { E2E_PASSWORD, type RunningProduct } from '../../e2e/support/server.ts';
import type { Figure, Section } from './figures.ts';
import { type LighthouseRun, medianOfScoredRuns, runUntilScored } from './lighthouse-runs.ts';
import { api, apiToken, wagonOrder } from './product-api.ts';

export type LighthousePreset = 'desktop' | 'mobile';

export const LIGHTHOUSE_THROTTLING: Record<LighthousePreset, string> = {
  desktop: 'simulate (Lantern), desktop dense 4G: 40 ms RTT, 10 Mbit/s, CPU 1x, 1350x940',
  mobile: 'simulate (Lantern), mobile slow 4G: 150 ms RTT, 1.6 Mbit/s, CPU 4x slowdown, 412x823 (Moto G Power)',
};

/** The aims for the performance score, per preset (issue 19). */
export const LIGHTHOUSE_AIMS: Record<LighthousePreset, number> = { desktop: 95, mobile: 90 };

/** Lighthouse's config per preset: its desktop config, or its default (mobile) one. */
const CONFIGS: Record<LighthousePreset, Config | undefined> = { desktop: desktopConfig, mobile: undefined };

const METRICS = [
  ['first-contentful-paint', 'first contentful paint'],
  ['largest-contentful-paint', 'largest contentful paint'],
  ['speed-index', 'speed index'],
  ['total-blocking-time', 'total blocking time'],
] as const;

export interface LighthousePage {
  page: 'login screen' | 'order list';
  preset: LighthousePreset;
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
  /** Runs Lighthouse could not score, left out of the median (lighthouse-runs.ts), with the reason. */
  leftOut: string[];
  runtimeError?: string;
}

/** Runs per page: the figures are the run of median performance score (scores move with the machine's load). */
export const LIGHTHOUSE_RUNS = 3;
/** Attempts beyond LIGHTHOUSE_RUNS per page and preset, to replace runs Lighthouse could not score. */
const SPARE_RUNS = 2;

const PRESETS: readonly LighthousePreset[] = ['desktop', 'mobile'];

/** A figure's name: the desktop figures keep the names they had before the mobile preset came. */
const label = (p: LighthousePage) => (p.preset === 'desktop' ? p.page : `${p.page}, mobile`);

/** The run of median performance score among the scored runs, with every scored run's score and load beside it. */
function medianRun(runs: LighthouseRun<LighthousePage>[]): LighthousePage {
  const { median, performanceRuns, loadAverages, leftOut } = medianOfScoredRuns(runs);
  // No run scored: the last one stands for them, its score NaN (the report shows n/a and the reasons).
  return { ...(median ?? runs.at(-1)!.figures), performanceRuns, loadAverages, leftOut };
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

function pageFigures(page: LighthousePage['page'], preset: LighthousePreset, lhr: Result): LighthousePage {
  const score = (id: string) => (lhr.categories[id]?.score ?? NaN) * 100;
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const accessibilityFailures = (lhr.categories.accessibility?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
    .map((audit) => audit!.title);
  return {
    page,
    preset,
    url: lhr.finalDisplayedUrl,
    performance: score('performance'),
    accessibility: score('accessibility'),
    metricsMs: Object.fromEntries(METRICS.map(([id]) => [id, numeric(id)])) as LighthousePage['metricsMs'],
    cumulativeLayoutShift: numeric('cumulative-layout-shift'),
    accessibilityFailures,
    warnings: [...lhr.runWarnings, ...(lhr.runtimeError ? [lhr.runtimeError.message] : [])],
    performanceRuns: [],
    loadAverages: [],
    leftOut: [],
    ...(lhr.runtimeError ? { runtimeError: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
  };
}

/** Orders in the list Lighthouse audits (issue 19: the order list with 20 orders). */
export const LIGHTHOUSE_ORDERS = 20;

/**
 * Tops the staff's order list up to LIGHTHOUSE_ORDERS: in the full bench the steps before this one leave orders,
 * but `--only lighthouse` starts on an empty database and would audit an empty list.
 */
async function seedOrders(product: RunningProduct): Promise<void> {
  const token = await apiToken(product);
  const existing = await api<unknown[]>(product, token, 'GET', 'orders');
  for (let i = existing.length; i < LIGHTHOUSE_ORDERS; i++) await wagonOrder(product, token);
}

export async function measureLighthouse(product: RunningProduct): Promise<LighthouseFigures> {
  await seedOrders(product);
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
    const auditOnce = async (
      page: LighthousePage['page'],
      preset: LighthousePreset,
      url: string,
      keepStorage: boolean,
    ) => {
      const load = loadavg()[0] ?? NaN;
      const result = await lighthouse(url, { ...flags, disableStorageReset: keepStorage }, CONFIGS[preset]);
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      const keep = process.env.VERS_LIGHTHOUSE_JSON;
      if (keep) {
        // Every run's full report, to read its audits (long tasks, bootup time, main-thread work by category).
        mkdirSync(keep, { recursive: true });
        const name = `${page.replace(/ /g, '-')}-${preset}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
        writeFileSync(path.join(keep, name), JSON.stringify(result.lhr));
      }
      return { lhr: result.lhr, figures: pageFigures(page, preset, result.lhr), load };
    };
    /** Both presets, their runs interleaved, so that a burst of load on the machine does not fall on one alone. */
    const audit = async (page: LighthousePage['page'], url: string, keepStorage: boolean) => {
      const runs = await runUntilScored(PRESETS, LIGHTHOUSE_RUNS, SPARE_RUNS, (preset) =>
        auditOnce(page, preset, url, keepStorage),
      );
      return { lhr: runs.desktop[0]!.lhr, figures: PRESETS.map((preset) => medianRun(runs[preset])) };
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
    for (const figures of orders.figures) {
      if (new URL(figures.url).pathname !== '/orders') {
        throw new Error(`Lighthouse's order list run ended on ${figures.url}: the session was not kept`);
      }
    }
    return {
      lighthouse: login.lhr.lighthouseVersion,
      chromium: login.lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'unknown',
      pages: [...login.figures, ...orders.figures],
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

export function lighthouseSections(f: LighthouseFigures): Section[] {
  const settings = PRESETS.map((preset) => `${preset}: ${LIGHTHOUSE_THROTTLING[preset]}`).join('; ');
  const version = `Lighthouse ${f.lighthouse}, ${f.chromium}; ${settings}`;
  const scores: Figure[] = f.pages.flatMap((p) => [
    {
      name: `${label(p)}: performance`,
      value: p.performance,
      unit: 'points',
      digits: 0,
      higherIsBetter: true,
      aim: { text: `>= ${LIGHTHOUSE_AIMS[p.preset]}`, met: p.performance >= LIGHTHOUSE_AIMS[p.preset] },
      note:
        `median of ${p.performanceRuns.length}: ${p.performanceRuns.map((x) => Math.round(x)).join(', ')}; ` +
        `1-min load ${p.loadAverages.map((x) => x.toFixed(1)).join(', ')}` +
        (p.leftOut.length ? `; left out, Lighthouse could not score them: ${p.leftOut.join('; ')}` : ''),
    },
    {
      name: `${label(p)}: accessibility`,
      value: p.accessibility,
      unit: 'points',
      digits: 0,
      higherIsBetter: true,
      ...(p.accessibilityFailures.length ? { note: `failed: ${p.accessibilityFailures.join('; ')}` } : {}),
    },
  ]);
  const metrics: Figure[] = f.pages.flatMap((p) => [
    ...METRICS.map(([id, metric]) => ({
      name: `${label(p)}: ${metric}`,
      value: p.metricsMs[id],
      unit: 'ms',
      digits: 0,
    })),
    { name: `${label(p)}: cumulative layout shift`, value: p.cumulativeLayoutShift, unit: '', digits: 3 },
  ]);
  const warnings = f.pages.flatMap((p) => p.warnings.map((w) => `${label(p)}: Lighthouse warned: ${w}`));
  return [
    {
      id: 'lighthouse-scores',
      title: 'Lighthouse scores (0-100)',
      figures: scores,
      chart: true,
      notes: [
        `${version}; login screen: first visit, storage reset; order list: signed in as staff, storage and ` +
          "service worker kept; the two presets' runs interleaved",
        "the login's largest contentful paint is the splash of index.html (logo and wordmark, painted before the " +
          'scripts), not the form, which comes when the scripts have run: read the blocking time beside it',
        ...warnings,
      ],
    },
    { id: 'lighthouse-metrics', title: 'Lighthouse metrics (simulated)', figures: metrics, notes: [version] },
  ];
}
