// Server start to its first answer, on an empty data folder (initdb or the build's template, migrations, demo data)
// and on the same folder again, against a bare Node HTTP server started the same way in the same run. Wall time,
// and the server process's CPU time and run-queue wait at the moment of its first answer (/proc): the CPU time is
// the figure of the code; a run whose process waited longer than it ran is marked starved. The server starts as
// `npm start` starts it: the bundle of `npm run build` (the bench builds first), node dist/main.js.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverEntry, startProduct } from '../../e2e/support/server.ts';
import type { Figure, Section } from './figures.ts';
import { type ProcessCost, processCost, starvedNote } from './process-time.ts';

interface Start extends ProcessCost {
  wallMs: number;
}

async function startBaseline(): Promise<Start> {
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const started = performance.now();
  const child = spawn(process.execPath, [
    '-e',
    `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`,
  ]);
  // Asked as often as the server is (startVers).
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/`)).ok) {
          return { wallMs: performance.now() - started, ...processCost(child.pid ?? -1) };
        }
      } catch {
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  } finally {
    child.kill();
  }
}

async function startVers(dataDir: string): Promise<Start> {
  const started = performance.now();
  // Asked every 20 ms: the server's background threads go on compiling while it waits to be asked.
  const product = await startProduct({}, { dataDir, pollMs: 20 });
  const wallMs = performance.now() - started;
  const cost = processCost(product.pid);
  await product.stop();
  return { wallMs, ...cost };
}

export async function measureStartup(runs = 3) {
  const baseline: Start[] = [];
  const empty: Start[] = [];
  const existing: Start[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(await startBaseline());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vers-startup-'));
    try {
      empty.push(await startVers(dataDir));
      existing.push(await startVers(dataDir));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { baseline, empty, existing, runs, entry: serverEntry().kind };
}

/** The run of median CPU time (its wall time and wait go with it). */
const medianRun = (starts: Start[]): Start =>
  [...starts].sort((a, b) => a.cpuMs - b.cpuMs)[Math.floor(starts.length / 2)]!;

export function startupSection(f: Awaited<ReturnType<typeof measureStartup>>): Section {
  const base = medianRun(f.baseline);
  const figures = (label: string, runs: Start[], goalMs: number): Figure[] => {
    const run = medianRun(runs);
    const starved = starvedNote(run);
    return [
      {
        name: `server start, CPU time to first answer, ${label}`,
        value: run.cpuMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'bare Node HTTP server', value: base.cpuMs },
        aim: { text: `<= ${goalMs} ms`, met: run.cpuMs <= goalMs },
        note: starved ?? `waited ${Math.round(run.waitMs)} ms for a CPU`,
      },
      {
        name: `server start to first answer, ${label}`,
        value: run.wallMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'bare Node HTTP server', value: base.wallMs },
        ...(starved ? { note: starved } : {}),
      },
    ];
  };
  return {
    id: 'startup',
    title: 'server start',
    figures: [...figures('empty data folder', f.empty, 2000), ...figures('existing data folder', f.existing, 1000)],
    notes: [
      `the run of median CPU time of ${f.runs}; migrations and demo data included on the empty folder`,
      f.entry === 'bundle'
        ? 'the server as `npm start` runs it: node apps/server/dist/main.js, the bundle of `npm run build`'
        : 'the server from its TypeScript source through tsx: the bundle was missing or older than the source',
      'the first answer is seen by polling every 20 ms, which the wall time includes',
    ],
  };
}
