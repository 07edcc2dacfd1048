import { describe, expect, it } from 'vitest';
import { catalogueTemplates, resolveKey } from '../catalogue/resolve.ts';
import { deadlineQuerySchema } from '../contract/deadlines.ts';
import {
  type DeadlineOrder,
  compareDeadlines,
  daysBetween,
  deadlineKeyPatterns,
  deadlineList,
  deadlineTemplates,
  dueDateOf,
  matchesDeadlineFilter,
  orderDeadlines,
} from './deadlines.ts';
import { ORDER_ROOTS } from './paths.ts';

const IN = ORDER_ROOTS.WAGON.in;
const OUT = ORDER_ROOTS.WAGON.out;
const WS_IN = ORDER_ROOTS.WHEELSET.in;
const WS_OUT = ORDER_ROOTS.WHEELSET.out;

const wagon: DeadlineOrder = {
  id: '00000000-0000-4000-8000-000000000001',
  type: 'WAGON',
  number: '2026-000001',
  wagonNumber: '318066501236',
  wheelsetNumber: null,
};
const wheelset: DeadlineOrder = {
  id: '00000000-0000-4000-8000-000000000002',
  type: 'WHEELSET',
  number: '2026-000002',
  wagonNumber: null,
  wheelsetNumber: '4711',
};

/** A stored attribute as the editor writes it. */
const at = (value: string) => ({ value, CaptureDate: '2026-11-01T08:00:00.000Z' });
const TODAY = '2026-11-27';

describe('the catalogue marks the deadlines', () => {
  it('marks the wagon revision deadline, the tank tests next due and the wheelset next due date, nothing else', () => {
    expect(deadlineTemplates('WAGON')).toEqual([
      'Revision.DatumLetzteFrist',
      'Tank.TestCollection.TankTest[].NaechstePruefung',
    ]);
    expect(deadlineTemplates('WHEELSET')).toEqual(['RevisionDeadline.NextDueDate']);
  });

  it('marks only date and month fields', () => {
    for (const type of ['WAGON', 'WHEELSET'] as const) {
      for (const template of catalogueTemplates(type)) {
        const field = resolveKey(type, `${ORDER_ROOTS[type].out}.${template.replaceAll('[]', '[0]')}`)?.field;
        if (field?.deadline) expect(['date', 'monthAndYear']).toContain(field.kind);
      }
    }
  });

  it('gives LIKE patterns for the deadline keys and the codes naming their entries, on both sides', () => {
    expect(deadlineKeyPatterns('WAGON').sort()).toEqual(
      [
        `${IN}.Revision.DatumLetzteFrist`,
        `${OUT}.Revision.DatumLetzteFrist`,
        `${IN}.Tank.TestCollection.TankTest[%].NaechstePruefung`,
        `${OUT}.Tank.TestCollection.TankTest[%].NaechstePruefung`,
        `${IN}.Tank.TestCollection.TankTest[%].Tankpruefungsart`,
        `${OUT}.Tank.TestCollection.TankTest[%].Tankpruefungsart`,
      ].sort(),
    );
    expect(deadlineKeyPatterns('WHEELSET').sort()).toEqual(
      [`${WS_IN}.RevisionDeadline.NextDueDate`, `${WS_OUT}.RevisionDeadline.NextDueDate`].sort(),
    );
  });
});

describe('the due date of a value', () => {
  const date = { kind: 'date' } as const;
  const month = { kind: 'monthAndYear' } as const;

  it('takes a date as it is and a month as its last day, leap years included', () => {
    expect(dueDateOf(date, at('2027-03-15'))).toBe('2027-03-15');
    expect(dueDateOf(date, '2028-02-29')).toBe('2028-02-29');
    expect(dueDateOf(month, at('2027-05'))).toBe('2027-05-31');
    expect(dueDateOf(month, '2028-02')).toBe('2028-02-29');
    expect(dueDateOf(month, '2027-02')).toBe('2027-02-28');
    expect(dueDateOf(month, '2026-12')).toBe('2026-12-31');
  });

  it('gives none for empty and malformed values', () => {
    for (const value of [null, undefined, '', '  ', at(''), 42, true, ['2027-01-01'], { value: 3 }]) {
      expect(dueDateOf(date, value)).toBeNull();
      expect(dueDateOf(month, value)).toBeNull();
    }
    for (const value of ['2027-02-29', '2027-13-01', '2027-04-31', '27-01-01', '2027-1-1', '01.05.2027', '2027-05']) {
      expect(dueDateOf(date, value)).toBeNull();
    }
    for (const value of ['2027-13', '2027-00', '2027-5', '05.2027', '2027-05-01'])
      expect(dueDateOf(month, value)).toBeNull();
    expect(dueDateOf({ kind: 'string' }, '2027-05-01')).toBeNull();
  });
});

describe('days left', () => {
  it('counts calendar days: today 0, yesterday -1, across month ends, leap days and the daylight-saving change', () => {
    expect(daysBetween(TODAY, TODAY)).toBe(0);
    expect(daysBetween(TODAY, '2026-11-26')).toBe(-1);
    expect(daysBetween(TODAY, '2026-12-27')).toBe(30);
    expect(daysBetween(TODAY, '2026-12-28')).toBe(31);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2027-02-28', '2027-03-01')).toBe(1);
    expect(daysBetween('2027-03-27', '2027-03-29')).toBe(2);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
  });
});

describe('the deadlines of an order', () => {
  it('takes the outgoing value, the state the wagon leaves in', () => {
    const values = {
      [`${IN}.Revision.DatumLetzteFrist`]: at('2026-12-01'),
      [`${OUT}.Revision.DatumLetzteFrist`]: at('2032-12-01'),
    };
    expect(orderDeadlines(wagon, values, TODAY)).toEqual([
      {
        orderId: wagon.id,
        orderType: 'WAGON',
        orderNumber: '2026-000001',
        vehicleNumber: '318066501236',
        field: 'Revision.DatumLetzteFrist',
        labelKey: 'catalogue.field.DatumLetzteFrist',
        side: 'out',
        due: '2032-12-01',
        daysLeft: daysBetween(TODAY, '2032-12-01'),
      },
    ]);
  });

  it('takes the incoming value while the outgoing side has none, or only a malformed one', () => {
    const values = { [`${IN}.Revision.DatumLetzteFrist`]: at('2026-12-01') };
    expect(orderDeadlines(wagon, values, TODAY)).toMatchObject([{ side: 'in', due: '2026-12-01', daysLeft: 4 }]);
    const malformed = { ...values, [`${OUT}.Revision.DatumLetzteFrist`]: at('2026-13-01') };
    expect(orderDeadlines(wagon, malformed, TODAY)).toMatchObject([{ side: 'in', due: '2026-12-01' }]);
    const cleared = { ...values, [`${OUT}.Revision.DatumLetzteFrist`]: null };
    expect(orderDeadlines(wagon, cleared, TODAY)).toMatchObject([{ side: 'in' }]);
  });

  it('matches tank tests by their kind, not their index, and names the kind', () => {
    const values = {
      [`${IN}.Tank.TestCollection.TankTest[0].Tankpruefungsart`]: at('P'),
      [`${IN}.Tank.TestCollection.TankTest[0].NaechstePruefung`]: at('2026-12'),
      [`${IN}.Tank.TestCollection.TankTest[1].Tankpruefungsart`]: at('L'),
      [`${IN}.Tank.TestCollection.TankTest[1].NaechstePruefung`]: at('2027-02'),
      // Outgoing, the workshop tested P again and recorded it at another index.
      [`${OUT}.Tank.TestCollection.TankTest[0].Tankpruefungsart`]: at('L'),
      [`${OUT}.Tank.TestCollection.TankTest[1].Tankpruefungsart`]: at('P'),
      [`${OUT}.Tank.TestCollection.TankTest[1].NaechstePruefung`]: at('2032-11'),
      // An entry without its kind is not shown in the editor and gives no deadline.
      [`${OUT}.Tank.TestCollection.TankTest[2].NaechstePruefung`]: at('2026-12'),
    };
    const deadlines = orderDeadlines(wagon, values, TODAY).sort(compareDeadlines);
    expect(deadlines.map(({ entry, side, due, labelKey }) => ({ entry, side, due, labelKey }))).toEqual([
      { entry: 'L', side: 'in', due: '2027-02-28', labelKey: 'catalogue.field.tankTestNextDue' },
      { entry: 'P', side: 'out', due: '2032-11-30', labelKey: 'catalogue.field.tankTestNextDue' },
    ]);
  });

  it('reads a wheelset order and ignores other fields, other roots and dates of work done', () => {
    const values = {
      [`${WS_OUT}.RevisionDeadline.NextDueDate`]: at('2026-11-26'),
      [`${WS_OUT}.RevisionDeadline.DatumLetzteFrist`]: at('2020-01-01'),
      [`${WS_OUT}.MountDate`]: at('2026-11-20'),
      [`${OUT}.Revision.DatumLetzteFrist`]: at('2026-12-01'),
    };
    expect(orderDeadlines(wheelset, values, TODAY)).toEqual([
      {
        orderId: wheelset.id,
        orderType: 'WHEELSET',
        orderNumber: '2026-000002',
        vehicleNumber: '4711',
        field: 'RevisionDeadline.NextDueDate',
        labelKey: 'catalogue.field.wheelsetNextDueDate',
        side: 'out',
        due: '2026-11-26',
        daysLeft: -1,
      },
    ]);
  });

  it('gives nothing for an order without values', () => {
    expect(orderDeadlines(wagon, {}, TODAY)).toEqual([]);
  });
});

describe('the filter and the urgency order', () => {
  it('keeps due today up to the window’s last day, and overdue ones only when asked', () => {
    const within30 = { within: 30, overdue: false } as const;
    expect(matchesDeadlineFilter({ daysLeft: 0 }, within30)).toBe(true);
    expect(matchesDeadlineFilter({ daysLeft: 30 }, within30)).toBe(true);
    expect(matchesDeadlineFilter({ daysLeft: 31 }, within30)).toBe(false);
    expect(matchesDeadlineFilter({ daysLeft: -1 }, within30)).toBe(false);
    expect(matchesDeadlineFilter({ daysLeft: -1 }, { within: 30, overdue: true })).toBe(true);
    expect(matchesDeadlineFilter({ daysLeft: 0 }, { within: null, overdue: true })).toBe(false);
    expect(matchesDeadlineFilter({ daysLeft: 80 }, { within: 60, overdue: true })).toBe(false);
    expect(matchesDeadlineFilter({ daysLeft: 80 }, { within: 90, overdue: true })).toBe(true);
  });

  it('lists many orders filtered, the longest overdue first', () => {
    const order = (n: number, due: string) => ({
      order: {
        ...wagon,
        id: `00000000-0000-4000-8000-00000000001${n}`,
        number: `2026-00001${n}`,
        wagonNumber: `3180665012${n}0`,
      },
      values: { [`${OUT}.Revision.DatumLetzteFrist`]: at(due) },
    });
    const list = deadlineList(
      [order(1, '2026-12-17'), order(2, '2026-11-20'), order(3, '2027-02-15'), order(4, TODAY), order(5, '2026-11-26')],
      { within: 30, overdue: true },
      TODAY,
    );
    expect(list.map((deadline) => [deadline.orderNumber, deadline.daysLeft])).toEqual([
      ['2026-000012', -7],
      ['2026-000015', -1],
      ['2026-000014', 0],
      ['2026-000011', 20],
    ]);
  });
});

describe('the query of GET deadlines', () => {
  it('takes the windows 30, 60 and 90, overdue as true or false, a real date as today', () => {
    expect(deadlineQuerySchema.parse({ within: '30' })).toEqual({ within: 30, overdue: true });
    expect(deadlineQuerySchema.parse({ overdue: 'false', today: '2028-02-29' })).toEqual({
      overdue: false,
      today: '2028-02-29',
    });
    for (const bad of [{ within: '45' }, { within: 'x' }, { overdue: 'yes' }, { today: '2027-02-29' }]) {
      expect(deadlineQuerySchema.safeParse(bad).success).toBe(false);
    }
  });
});
