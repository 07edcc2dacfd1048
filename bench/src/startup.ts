// Time from starting the server process on an empty data folder to its first answer, against a baseline:
// a bare Node HTTP server started the same way in the same run.
import { spawn } from 'node:child_process';
import { startProduct } from '../../e2e/support/server.ts';
import type { Section } from './figures.ts';

async function timeBaseline(): Promise<number> {
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const started = performance.now();
  const child = spawn(process.execPath, [
    '-e',
    `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`,
  ]);
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return performance.now() - started;
      } catch {
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  } finally {
    child.kill();
  }
}

export async function measureStartup(runs = 3) {
  const vers: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(await timeBaseline());
    const started = performance.now();
    const product = await startProduct(); // fresh, empty data folder: migrations and demo seed included
    vers.push(performance.now() - started);
    await product.stop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  return { versMs: median(vers), baselineMs: median(baseline), runs };
}

export function startupSection(f: Awaited<ReturnType<typeof measureStartup>>): Section {
  return {
    id: 'startup',
    title: 'server start',
    figures: [
      {
        name: 'server start to first answer, empty data folder',
        value: f.versMs,
        unit: 'ms',
        digits: 0,
        baseline: { name: 'bare Node HTTP server', value: f.baselineMs },
      },
    ],
    notes: [`median of ${f.runs}; migrations and demo data included`],
  };
}
