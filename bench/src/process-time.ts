// What a process has cost and how long it waited for a CPU, read from /proc: on these shared 2-core machines a
// figure taken while the process mostly waited measures the machine's load, not the code.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of the process (all its threads), in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** Time the process's threads spent runnable but waiting for a CPU (run-queue wait, schedstat), in ms. */
export function runQueueWaitMs(pid: number): number {
  let waitNs = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [, wait] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').trim().split(' ');
      waitNs += Number(wait);
    } catch {
      // the thread ended meanwhile
    }
  }
  return waitNs / 1e6;
}

export interface ProcessCost {
  cpuMs: number;
  waitMs: number;
}

export const processCost = (pid: number): ProcessCost => ({ cpuMs: cpuMs(pid), waitMs: runQueueWaitMs(pid) });

/** The note for a figure taken while its process waited for a CPU longer than it ran. */
export const starvedNote = (cost: ProcessCost): string | undefined =>
  cost.waitMs > cost.cpuMs
    ? `starved: not a measurement of the code (waited ${Math.round(cost.waitMs)} ms for a CPU, ran ${Math.round(cost.cpuMs)} ms)`
    : undefined;

/** CPU time and run-queue wait of one thread (`tid`) of the process, e.g. its main thread (tid = pid), in ms. */
export function threadCost(pid: number, tid: number = pid): ProcessCost {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ');
  return { cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS, waitMs: Number(wait) / 1e6 };
}

/** What was spent between two readings of the same process or thread. */
export const costSince = (before: ProcessCost, after: ProcessCost): ProcessCost => ({
  cpuMs: after.cpuMs - before.cpuMs,
  waitMs: after.waitMs - before.waitMs,
});

/** The note for a figure whose process did not starve: how long it ran and waited, for the reader to judge. */
export const costNote = (cost: ProcessCost): string =>
  starvedNote(cost) ?? `ran ${Math.round(cost.cpuMs)} ms, waited ${Math.round(cost.waitMs)} ms for a CPU`;

const BACKEND_SAMPLE_MS = 500;

/**
 * The CPU of the PostgreSQL backends serving one database, summed over every backend seen while watched: the
 * backends are listed every sample (pg_stat_activity), and a backend's last reading stays counted after it ends.
 */
export function watchBackends(database: { serverUrl: string; name: string }) {
  const client = new pg.Client({ connectionString: database.serverUrl });
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let connected: Promise<unknown> | null = null;
  let started = false;
  const sample = async () => {
    connected ??= client.connect();
    await connected;
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
      database.name,
    ]);
    for (const { pid } of rows) {
      try {
        const cpu = cpuMs(pid);
        // A backend first seen now started after the previous sample (or before watching began, at the first one).
        if (!first.has(pid)) first.set(pid, started ? 0 : cpu);
        last.set(pid, cpu);
      } catch {
        // ended meanwhile
      }
    }
  };
  const ready = sample().then(() => {
    started = true;
  });
  let pending: Promise<void> = ready;
  const timer = setInterval(() => (pending = pending.then(sample).catch(() => undefined)), BACKEND_SAMPLE_MS);
  return {
    ready,
    async stop(): Promise<number> {
      clearInterval(timer);
      await pending;
      await sample();
      await client.end();
      let sum = 0;
      for (const [pid, cpu] of last) sum += cpu - first.get(pid)!;
      return sum;
    },
  };
}
