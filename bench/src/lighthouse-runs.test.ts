import { describe, expect, it } from 'vitest';
import { type LighthouseRun, type ScoredFigures, medianOfScoredRuns, runUntilScored } from './lighthouse-runs.ts';

const run = (performance: number, load: number, runtimeError?: string): LighthouseRun<ScoredFigures> => ({
  figures: { performance, ...(runtimeError ? { runtimeError } : {}) },
  load,
});

describe('the median of Lighthouse runs', () => {
  it('is the middle score of three scored runs, with every score and load in run order', () => {
    const result = medianOfScoredRuns([run(80, 1.5), run(70, 3), run(90, 0.5)]);
    expect(result.median?.performance).toBe(80);
    expect(result.performanceRuns).toEqual([80, 70, 90]);
    expect(result.loadAverages).toEqual([1.5, 3, 0.5]);
    expect(result.leftOut).toEqual([]);
  });

  it('leaves out a run Lighthouse could not score and says why, instead of sorting its NaN with the others', () => {
    // A NaN compares as equal to every score, so sorting it with the others left the "median" to the run order.
    const result = medianOfScoredRuns([run(NaN, 4.2, 'NO_NAVSTART: no navigation'), run(95, 2), run(60, 2)]);
    expect(result.performanceRuns).toEqual([95, 60]);
    // Of two, the lower: the run left out does not make the figure look better.
    expect(result.median?.performance).toBe(60);
    expect(result.leftOut).toEqual(['load 4.2: NO_NAVSTART: no navigation']);

    const three = medianOfScoredRuns([run(95, 2), run(NaN, 4.2), run(60, 2), run(70, 2)]);
    expect(three.median?.performance).toBe(70);
    expect(three.leftOut).toEqual(['load 4.2: no performance score']);
  });

  it('has no median when no run was scored', () => {
    const result = medianOfScoredRuns([run(NaN, 1, 'NO_FCP: no paint')]);
    expect(result.median).toBeUndefined();
    expect(result.performanceRuns).toEqual([]);
    expect(result.leftOut).toHaveLength(1);
  });
});

describe('running until scored', () => {
  it('replaces unscored runs while spare attempts are left, interleaving the presets', async () => {
    const scores: Record<'desktop' | 'mobile', number[]> = { desktop: [90, NaN, 91, 92], mobile: [70, 71, 72] };
    const order: string[] = [];
    const runs = await runUntilScored(['desktop', 'mobile'] as const, 3, 2, async (preset) => {
      order.push(preset);
      return run(scores[preset].shift() ?? NaN, 1);
    });
    expect(runs.desktop.map((r) => r.figures.performance)).toEqual([90, NaN, 91, 92]);
    expect(runs.mobile.map((r) => r.figures.performance)).toEqual([70, 71, 72]);
    expect(order).toEqual(['desktop', 'mobile', 'desktop', 'mobile', 'desktop', 'mobile', 'desktop']);
  });

  it('stops after the spare attempts when runs keep failing', async () => {
    let attempts = 0;
    const runs = await runUntilScored(['mobile'] as const, 3, 2, async () => {
      attempts++;
      return run(NaN, 1);
    });
    expect(attempts).toBe(5);
    expect(runs.mobile).toHaveLength(5);
  });
});
