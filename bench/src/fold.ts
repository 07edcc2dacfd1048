// Folding an order's activities into its state (`foldActivities` of @vers/domain, which the browser runs when it
// opens an order and the server on every revert), against a baseline in the same run: a plain
// Array.prototype.sort by counter and a Map set loop over the same rows.
import type { Section } from './figures.ts';
import { randomUUID } from 'node:crypto';
import { ACTIVITY_TYPES, type Activity, foldActivities, ORDER_ROOTS, ORDER_STATUSES, SENT_STATES } from '@vers/domain';
import { seededRandom } from './random.ts';

export const FOLD_ACTIVITIES = 10_000;

/**
 * One wagon order's activities: values spread over 300 paths (90 fields and 6 wheelsets of 10 fields on each
 * side), about 2% deletes (half of them of a whole wheelset), about 5% reverted, a status change every 1,000,
 * server counters 1..count, in the shuffled order a store keyed by id gives them back.
 */
export function orderActivities(count = FOLD_ACTIVITIES): Activity[] {
  const random = seededRandom(20_250_303);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const orderId = randomUUID();
  const wheelset = (side: 'in' | 'out', index: number) =>
    `${ORDER_ROOTS.WAGON[side]}.Understructure.WheelsetCollection.Wheelset[${index}]`;
  const paths: string[] = [];
  const wheelsets: string[] = [];
  for (const side of ['in', 'out'] as const) {
    for (let field = 0; field < 90; field++) paths.push(`${ORDER_ROOTS.WAGON[side]}.Chapter${field % 9}.Field${field}`);
    for (let index = 0; index < 6; index++) {
      wheelsets.push(wheelset(side, index));
      for (let field = 0; field < 10; field++) paths.push(`${wheelset(side, index)}.Field${field}`);
    }
  }
  const statuses = [ORDER_STATUSES.IN_WORK, ORDER_STATUSES.IN_QA, ORDER_STATUSES.IN_WORK];
  const start = Date.parse('2025-03-03T06:00:00Z');
  const rows: Activity[] = [];
  for (let counter = 1; counter <= count; counter++) {
    const created = new Date(start + counter * 7_000).toISOString();
    const roll = random();
    let activityType: Activity['activityType'] = ACTIVITY_TYPES.XML_MODIFICATION;
    let key = pick(paths);
    let outputValue = JSON.stringify({ value: String(counter), CaptureDate: created });
    if (counter % 1_000 === 0) {
      activityType = ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION;
      key = '$.status';
      outputValue = JSON.stringify(statuses[(counter / 1_000) % statuses.length]);
    } else if (roll < 0.02) {
      activityType = ACTIVITY_TYPES.XML_DELETE;
      key = roll < 0.01 ? pick(wheelsets) : key;
      outputValue = 'null';
    }
    rows.push({
      id: randomUUID(),
      orderId,
      key,
      outputValue,
      activityType,
      created,
      lastModified: created,
      counter,
      counterLocal: 0,
      reverted: activityType !== ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION && random() < 0.05,
      sent: SENT_STATES.SENT,
    });
  }
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  return rows;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function measureFold(options: { count?: number; runs?: number; warmups?: number } = {}) {
  const { count = FOLD_ACTIVITIES, runs = 21, warmups = 5 } = options;
  const rows = orderActivities(count);
  let folded = 0;
  let baselineKeys = 0;
  const fold = () => {
    folded = Object.keys(foldActivities(rows).values).length;
  };
  const baseline = () => {
    const values = new Map<string, string>();
    for (const row of [...rows].sort((a, b) => a.counter - b.counter)) values.set(row.key, row.outputValue);
    baselineKeys = values.size;
  };
  const time = (run: () => void) => {
    const started = performance.now();
    run();
    return performance.now() - started;
  };
  for (let i = 0; i < warmups; i++) {
    fold();
    baseline();
  }
  const foldMs: number[] = [];
  const baselineMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    foldMs.push(time(fold));
    baselineMs.push(time(baseline));
  }
  const perThousand = 1_000 / rows.length;
  return {
    activities: rows.length,
    /** Values in the folded state (the baseline, without deletes and reverts, keeps every path). */
    foldedValues: folded,
    baselineValues: baselineKeys,
    foldMsPer1000: median(foldMs) * perThousand,
    baselineMsPer1000: median(baselineMs) * perThousand,
    runs,
  };
}

export function foldSection(figures: ReturnType<typeof measureFold>): Section {
  return {
    id: 'fold',
    title: `fold of an order with ${figures.activities.toLocaleString('en')} activities`,
    figures: [
      {
        name: 'fold, per 1,000 activities',
        value: figures.foldMsPer1000,
        unit: 'ms',
        digits: 3,
        baseline: { name: 'plain sort by counter + Map set loop', value: figures.baselineMsPer1000 },
        note: `${figures.foldedValues} values folded`,
      },
    ],
    notes: [`median of ${figures.runs}`],
  };
}
