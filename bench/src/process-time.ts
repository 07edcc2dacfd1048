// What a process has cost and how long it waited for a CPU, read from /proc: on these shared 2-core machines a
// figure taken while the process mostly waited measures the machine's load, not the code.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

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
