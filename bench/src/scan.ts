// Scanning the number, in Chromium against the built product: the scanner's engine (apps/web/src/features/scan/
// engine.ts, as built: its chunk, worker, .wasm files and model as the server sends them) is loaded into a page of
// the app and reads generated camera frames (scan-pictures.ts) on a CPU slowed down 4x (CDP
// Emulation.setCPUThrottlingRate), as a tablet is slower than this machine. Measured: the share of frames read
// right, refused and read wrong (a number other than the one painted, or any number for a frame that must be
// refused: aim 0, the check digit guards it), the time from a frame to its number, and the engine's start.
// Figures are printed, never asserted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import type { RunningProduct as Product } from '../../e2e/support/server.ts';
import type { NumberScanner, ScanReading } from '../../apps/web/src/features/scan/types.ts';
import type { Section } from './figures.ts';
import { type ProcessCost, costNote, costSince, processCost } from './process-time.ts';
import {
  AIM,
  FRAME,
  type ScanPictureSpec,
  expectedReading,
  renderScanPicture,
  scanPictureSpecs,
} from './scan-pictures.ts';

/** Frames read: enough for a share of a few percent to mean something, few enough for ~3 minutes at 4x. */
const PICTURES = 90;
const SEED = 24;
const CPU_SLOWDOWN = 4;

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The built engine's file, from the build's manifest. */
function engineFile(): string {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'apps/web/dist/.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string }
  >;
  const entry = manifest['src/features/scan/engine.ts'];
  if (!entry) throw new Error('the build has no scanner engine (src/features/scan/engine.ts)');
  return `/${entry.file}`;
}

export type ScanOutcome = 'right' | 'refused' | 'wrong';

export interface ScanFigures {
  pictures: number;
  /** Frames whose expected answer is a number, and those that must be refused. */
  withNumber: number;
  toRefuse: number;
  right: number;
  refused: number;
  wrong: number;
  /** Per kind of frame: right / all. */
  byKind: Record<string, { right: number; all: number }>;
  /** Reasons given for refusals, counted. */
  reasons: Record<string, number>;
  /** Wall time of read() per frame that gave the right number, median and 95th percentile; and of all frames. */
  numberMedianMs: number;
  numberP95Ms: number;
  allMedianMs: number;
  /** createNumberScanner(): loading the worker, the .wasm files and the model, at the same slowdown. */
  startMs: number;
  /** CPU of the browser's renderer processes (the page and its worker) over all reads, per frame. */
  cpuPerFrameMs: number;
  cost: ProcessCost;
  wrongExamples: string[];
  /** Each frame's answer, in order, for a closer look (not printed). */
  readings: ScanReading[];
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]! : NaN;
};

/** The pids of renderer processes, from the browser's own process list. */
async function rendererPids(browser: Browser): Promise<number[]> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    return processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  } finally {
    await session.detach().catch(() => undefined);
  }
}

const renderersCost = (pids: number[]): ProcessCost =>
  pids.reduce(
    (sum, pid) => {
      try {
        const cost = processCost(pid);
        return { cpuMs: sum.cpuMs + cost.cpuMs, waitMs: sum.waitMs + cost.waitMs };
      } catch {
        return sum;
      }
    },
    { cpuMs: 0, waitMs: 0 },
  );

/** Loads the engine into the page and starts a scanner, kept as window.__scanner; answers the start's wall time. */
function startScanner(page: Page, file: string): Promise<number> {
  return page.evaluate(async (file) => {
    const started = performance.now();
    const engine = (await import(file)) as { createNumberScanner(): Promise<NumberScanner> };
    (window as unknown as { __scanner: unknown }).__scanner = await engine.createNumberScanner();
    return performance.now() - started;
  }, file);
}

/** Reads one PNG frame with the page's scanner: the reading and the wall time of read(). */
function readInPage(page: Page, png: Buffer): Promise<{ reading: ScanReading; ms: number }> {
  return page.evaluate(
    async ({ base64, aim }) => {
      const binary = atob(base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const scanner = (window as unknown as { __scanner: NumberScanner }).__scanner;
      const started = performance.now();
      const reading = await scanner.read(bitmap, aim);
      const ms = performance.now() - started;
      bitmap.close();
      return { reading, ms };
    },
    { base64: png.toString('base64'), aim: AIM },
  );
}

export function outcomeOf(spec: ScanPictureSpec, reading: ScanReading): ScanOutcome {
  const expected = expectedReading(spec);
  if (reading.kind === 'nothing') return 'refused';
  return 'number' in expected && expected.number === reading.digits ? 'right' : 'wrong';
}

/** A frame's kind for the breakdown: painted numbers by paint, and those partly covered apart (often unreadable). */
const kindOf = (spec: ScanPictureSpec) =>
  spec.kind !== 'text'
    ? spec.kind
    : spec.occlusion > 0
      ? 'text, partly covered'
      : spec.paint === 'dark'
        ? 'text, dark paint'
        : 'text, light paint';

export async function measureScan(product: Product, count = PICTURES): Promise<ScanFigures> {
  const browser = await launchBrowser();
  try {
    // The pictures first, in a page of their own, unthrottled: their drawing is no part of the measurement.
    const specs = scanPictureSpecs(count, SEED);
    const painter = await browser.newPage({ viewport: FRAME });
    const pictures: Buffer[] = [];
    for (const [index, spec] of specs.entries()) pictures.push(await renderScanPicture(painter, spec, SEED + index));
    await painter.close();

    const context = await browser.newContext({ baseURL: product.url });
    const page = await context.newPage();
    await page.goto('/login');
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const startMs = await startScanner(page, engineFile());

    const pids = await rendererPids(browser);
    const before = renderersCost(pids);
    const figures: Omit<ScanFigures, 'cpuPerFrameMs' | 'cost' | 'startMs'> = {
      pictures: count,
      withNumber: specs.filter((spec) => 'number' in expectedReading(spec)).length,
      toRefuse: specs.filter((spec) => 'refused' in expectedReading(spec)).length,
      right: 0,
      refused: 0,
      wrong: 0,
      byKind: {},
      reasons: {},
      numberMedianMs: NaN,
      numberP95Ms: NaN,
      allMedianMs: NaN,
      wrongExamples: [],
      readings: [],
    };
    const numberTimes: number[] = [];
    const allTimes: number[] = [];
    for (const [index, spec] of specs.entries()) {
      const { reading, ms } = await readInPage(page, pictures[index]!);
      const outcome = outcomeOf(spec, reading);
      figures[outcome]++;
      figures.readings.push(reading);
      allTimes.push(ms);
      if (outcome === 'right') numberTimes.push(ms);
      const kind = kindOf(spec);
      const tally = (figures.byKind[kind] ??= { right: 0, all: 0 });
      tally.all++;
      // For a frame that must be refused, a refusal is its right answer.
      if (outcome === 'right' || (outcome === 'refused' && 'refused' in expectedReading(spec))) tally.right++;
      if (reading.kind === 'nothing') figures.reasons[reading.reason] = (figures.reasons[reading.reason] ?? 0) + 1;
      if (outcome === 'wrong') {
        figures.wrongExamples.push(
          `#${index} ${JSON.stringify(spec)} read ${reading.kind === 'number' ? reading.digits : reading.reason}`,
        );
      }
    }
    const cost = costSince(before, renderersCost(pids));
    return {
      ...figures,
      numberMedianMs: percentile(numberTimes, 0.5),
      numberP95Ms: percentile(numberTimes, 0.95),
      allMedianMs: percentile(allTimes, 0.5),
      startMs,
      cpuPerFrameMs: cost.cpuMs / count,
      cost,
    };
  } finally {
    await browser.close();
  }
}

export function scanSection(figures: ScanFigures): Section {
  const share = (n: number, of: number) => (of > 0 ? (100 * n) / of : NaN);
  const rightOfNumbers = figures.right;
  return {
    id: 'scan',
    title: `scanning the number (${figures.pictures} generated frames, CPU slowed ${CPU_SLOWDOWN}x)`,
    figures: [
      {
        name: 'frames with a number read right',
        value: share(rightOfNumbers, figures.withNumber),
        unit: '%',
        digits: 1,
        higherIsBetter: true,
        note: `${rightOfNumbers} of ${figures.withNumber}`,
      },
      {
        name: 'frames refused',
        value: share(figures.refused, figures.pictures),
        unit: '%',
        digits: 1,
        note: `${figures.refused} of ${figures.pictures}, of which ${figures.toRefuse} must be refused; reasons ${JSON.stringify(figures.reasons)}`,
      },
      {
        name: 'frames read wrong',
        value: share(figures.wrong, figures.pictures),
        unit: '%',
        digits: 1,
        aim: { text: '= 0', met: figures.wrong === 0 },
        note: `${figures.wrong} of ${figures.pictures}`,
      },
      {
        name: 'frame to number, median',
        value: figures.numberMedianMs,
        unit: 'ms',
        digits: 0,
        note: `all frames' median ${Math.round(figures.allMedianMs)} ms`,
      },
      { name: 'frame to number, 95th percentile', value: figures.numberP95Ms, unit: 'ms', digits: 0 },
      {
        name: 'CPU per frame (renderer, unthrottled cost)',
        value: figures.cpuPerFrameMs,
        unit: 'ms',
        digits: 0,
        note: costNote(figures.cost),
      },
      { name: 'engine start (worker, .wasm, model)', value: figures.startMs, unit: 'ms', digits: 0 },
    ],
    notes: [
      `right per kind: ${Object.entries(figures.byKind)
        .map(([kind, tally]) => `${kind} ${tally.right}/${tally.all}`)
        .join(', ')} (a frame that must be refused counts right when refused)`,
      `frames ${FRAME.width}x${FRAME.height} read with the aim ${AIM.width}x${AIM.height} in the middle; seed ${SEED}`,
      ...figures.wrongExamples.map((example) => `READ WRONG: ${example}`),
    ],
  };
}
