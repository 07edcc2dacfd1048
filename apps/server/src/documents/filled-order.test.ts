import {
  CATALOGUE,
  type OrderType,
  type Values,
  activityProblem,
  allRows,
  isFilled,
  isValidVehicleNumber,
  layoutTab,
  perEntrySummary,
  valueOf,
} from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { FILLED_WAGON_NUMBER, FILLED_WHEELSET_NUMBER, filledOrderValues } from './filled-order.ts';

const TYPES = ['WAGON', 'WHEELSET'] as const;

/** The rows a tab shows with a filled side, over all entries of a tab that repeats per entry. */
function filledRows(type: OrderType, values: Values, tabId: string): number {
  const tab = CATALOGUE[type].find((candidate) => candidate.id === tabId)!;
  const views = tab.perEntry
    ? (perEntrySummary(type, tab, values)?.entries ?? []).map((entry) =>
        layoutTab(type, tab, values, entry.entry.value),
      )
    : [layoutTab(type, tab, values)];
  return views
    .flatMap(allRows)
    .filter((row) => isFilled(row.in && values[row.in.key]) || isFilled(row.out && values[row.out.key])).length;
}

describe('filledOrderValues', () => {
  it.each(TYPES)('fills a %s order with values the catalogue takes', (type) => {
    const values = filledOrderValues(type, new Date('2026-11-22T08:00:00Z'));
    expect(Object.keys(values).length).toBeGreaterThan(type === 'WAGON' ? 1000 : 200);
    const problems = Object.entries(values)
      .map(([key, stored]) => ({
        key,
        problem: activityProblem(type, key, 'XML_MODIFICATION', JSON.stringify(stored)),
      }))
      .filter(({ problem }) => problem !== null);
    expect(problems).toEqual([]);
  });

  it.each(TYPES)('shows at least one filled row in every %s tab', (type) => {
    const values = filledOrderValues(type);
    for (const tab of CATALOGUE[type]) expect(filledRows(type, values, tab.id), tab.id).toBeGreaterThan(0);
  });

  it('gives the wagon 4 wheelsets with valid numbers, one exchanged', () => {
    const values = filledOrderValues('WAGON');
    const numbers = (side: 'Incoming' | 'Outgoing') =>
      Object.entries(values)
        .filter(([key]) => key.startsWith(`$.Body.Wagen.technicalWaggon${side}.`) && key.endsWith('.Wheelsetnumber'))
        .map(([, stored]) => String(valueOf(stored)));
    expect(numbers('Incoming')).toHaveLength(4);
    expect([...numbers('Incoming'), ...numbers('Outgoing')].every(isValidVehicleNumber)).toBe(true);
    expect(numbers('Outgoing').filter((number) => !numbers('Incoming').includes(number))).toHaveLength(1);
    expect(valueOf(values['$.Body.Wagen.technicalWaggonOutgoing.AnzahlAchsen'])).toBe('4');
    expect(isValidVehicleNumber(FILLED_WAGON_NUMBER)).toBe(true);
    expect(isValidVehicleNumber(FILLED_WHEELSET_NUMBER)).toBe(true);
  });
});
