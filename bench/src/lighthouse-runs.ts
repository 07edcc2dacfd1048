// Which Lighthouse runs a score is taken from. A run that Lighthouse could not score (a runtime error such as
// NO_NAVSTART under load: the trace lost the navigation) has NaN for its performance score; sorted with the scored
// runs it lands anywhere, and the "median" it gives is not one. Such runs are left out, said in the report, and
// replaced by another run while attempts are left.

/** One run's figures as the median needs them. */
export interface ScoredFigures {
  performance: number;
  /** Why Lighthouse could not score the run, where it said (its runtime error). */
  runtimeError?: string;
}

export interface LighthouseRun<F extends ScoredFigures> {
  figures: F;
  /** The machine's 1-minute load average as the run began. */
  load: number;
}

export interface MedianOfRuns<F extends ScoredFigures> {
  /**
   * The run of median performance score among the scored runs (of an even number, the lower of the two middle
   * ones: a left-out run must not flatter the figure); undefined when no run was scored.
   */
  median: F | undefined;
  /** Performance score and load of every scored run, in the order they ran. */
  performanceRuns: number[];
  loadAverages: number[];
  /** One line per run left out: its load and Lighthouse's reason. */
  leftOut: string[];
}

export const isScored = (run: LighthouseRun<ScoredFigures>) => Number.isFinite(run.figures.performance);

export function medianOfScoredRuns<F extends ScoredFigures>(runs: LighthouseRun<F>[]): MedianOfRuns<F> {
  const scored = runs.filter(isScored);
  const sorted = [...scored].sort((a, b) => a.figures.performance - b.figures.performance);
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)]?.figures,
    performanceRuns: scored.map((run) => run.figures.performance),
    loadAverages: scored.map((run) => run.load),
    leftOut: runs
      .filter((run) => !isScored(run))
      .map((run) => `load ${run.load.toFixed(1)}: ${run.figures.runtimeError ?? 'no performance score'}`),
  };
}

/**
 * Runs `attempt` per preset until each has `wanted` scored runs or `wanted + spare` attempts, the presets
 * interleaved (one run of each in turn) so that a burst of load on the machine does not fall on one alone.
 */
export async function runUntilScored<P extends string, R extends LighthouseRun<ScoredFigures>>(
  presets: readonly P[],
  wanted: number,
  spare: number,
  attempt: (preset: P) => Promise<R>,
): Promise<Record<P, R[]>> {
  const runs = {} as Record<P, R[]>;
  for (const preset of presets) runs[preset] = [];
  for (let round = 0; round < wanted + spare; round++) {
    for (const preset of presets) {
      if (runs[preset].filter(isScored).length < wanted) runs[preset].push(await attempt(preset));
    }
  }
  return runs;
}
