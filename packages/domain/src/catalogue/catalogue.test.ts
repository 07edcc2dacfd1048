import { describe, expect, it } from 'vitest';
import { ACTIVITY_TYPES } from '../orders/activity.ts';
import { CREATION_KEYS, isOrderKey, ORDER_ROOTS } from '../orders/paths.ts';
import { ALL_ORDER_TYPES } from '../orders/status.ts';
import {
  addEntryWrites,
  allRows,
  filterMissing,
  layoutTab,
  limitWarning,
  lowestUnused,
  perEntrySummary,
  progressColour,
  recalculate,
  withCalculatedValues,
  removeEntryWrites,
  tabProgress,
  takeOverWrites,
  type Values,
} from './layout.ts';
import { activityProblem, catalogueTemplates, resolveKey } from './resolve.ts';
import { CATALOGUE, findTab } from './tabs.ts';
import { attributeValue, valueOf, valueProblem } from './values.ts';

const W_IN = ORDER_ROOTS.WAGON.in;
const W_OUT = ORDER_ROOTS.WAGON.out;
const R_IN = ORDER_ROOTS.WHEELSET.in;
const R_OUT = ORDER_ROOTS.WHEELSET.out;
const at = (value: string | boolean) => attributeValue(value, new Date('2026-11-22T08:00:00Z'));
const json = (value: unknown) => JSON.stringify(value);

/** A wagon order as the server creates it: the number on both sides, four outgoing wheelsets. */
function newWagon(): Record<string, unknown> {
  const values: Record<string, unknown> = {
    [CREATION_KEYS.wagonNumber('in')]: at('218124712173'),
    [CREATION_KEYS.wagonNumber('out')]: at('218124712173'),
  };
  for (let i = 0; i < 4; i++) {
    values[CREATION_KEYS.outgoingWheelset(i, 'Position')] = at(String(i + 1));
    values[CREATION_KEYS.outgoingWheelset(i, 'Wheelsetnumber')] = at(`4000000000${i}`);
  }
  return values;
}

function apply(values: Record<string, unknown>, writes: { key: string; value: unknown }[]) {
  for (const write of writes) {
    if (write.value === null) {
      for (const key of Object.keys(values))
        if (key === write.key || key.startsWith(`${write.key}.`)) delete values[key];
    } else {
      values[write.key] = at(write.value as string);
    }
  }
  return values;
}

describe('the catalogue', () => {
  it('gives every path a valid key under the right body, once', () => {
    for (const type of ALL_ORDER_TYPES) {
      const templates = catalogueTemplates(type);
      expect(new Set(templates).size).toBe(templates.length);
      for (const template of templates) {
        for (const side of ['in', 'out'] as const) {
          expect(isOrderKey(`${ORDER_ROOTS[type][side]}.${template.replaceAll('[]', '[0]')}`, type)).toBe(true);
        }
      }
    }
  });

  it('knows the keys the server writes when it creates an order', () => {
    expect(resolveKey('WAGON', CREATION_KEYS.wagonNumber('in'))?.field?.kind).toBe('baseString');
    expect(resolveKey('WAGON', CREATION_KEYS.outgoingWheelset(7, 'Position'))?.tab.id).toBe('wheelsets');
    expect(resolveKey('WAGON', CREATION_KEYS.outgoingWheelset(7, 'Wheelsetnumber'))?.field?.kind).toBe('baseString');
    expect(resolveKey('WHEELSET', CREATION_KEYS.wheelsetNumber('out'))?.side).toBe('out');
  });

  it('resolves a key to tab, chapter, side and scope, and nothing outside the catalogue', () => {
    const sd = resolveKey('WAGON', `${W_OUT}.Understructure.WheelsetCollection.Wheelset[2].Wheels.Wheel[1].Sd`);
    expect(sd).toMatchObject({ tab: { id: 'wheelsets' }, chapter: { id: 'wheels' }, side: 'out' });
    expect(sd?.chapterScope).toBe(`${W_OUT}.Understructure.WheelsetCollection.Wheelset[2]`);
    expect(resolveKey('WAGON', `${W_IN}.Nonsense`)).toBeNull();
    expect(resolveKey('WAGON', `${R_IN}.Wheelsetnumber`)).toBeNull();
    expect(resolveKey('WHEELSET', `${R_IN}.Wheels.Wheel[0].Qr`)?.tab.id).toBe('wheelMeasures');
  });
});

describe('values against their field kinds', () => {
  const field = (kind: Parameters<typeof valueProblem>[0]['kind'], extra = {}) => ({ path: 'X', kind, ...extra });
  it.each([
    ['double', '12.5', null],
    ['double', '12,5', 'number expected'],
    ['double', 'abc', 'number expected'],
    ['double', 12.5, 'number as text expected'],
    ['boolean', true, null],
    ['boolean', 'true', 'true or false expected'],
    ['date', '2026-02-28', null],
    ['date', '2026-02-30', 'date YYYY-MM-DD expected'],
    ['monthAndYear', '2026-11', null],
    ['monthAndYear', '2026-13', 'month YYYY-MM expected'],
    ['year', '2026', null],
    ['year', '1850', 'year YYYY from 1900 to 2199 expected'],
    ['year', '0000', 'year YYYY from 1900 to 2199 expected'],
    ['year', '2250', 'year YYYY from 1900 to 2199 expected'],
    ['string', 'x'.repeat(200), null],
    ['string', 'x'.repeat(250), 'at most 200 characters'],
    ['multioption', ['A', 'B'], null],
    ['multioption', 'A', 'list of texts expected'],
    ['string', 7, 'text expected'],
  ] as const)('%s %j → %s', (kind, value, problem) => {
    expect(valueProblem(field(kind), value)).toBe(problem);
  });

  it('refuses more decimals than the field keeps and a minus where none is allowed', () => {
    expect(valueProblem(field('double', { decimals: 1 }), '1.25')).toBe('at most 1 decimals');
    expect(valueProblem(field('double'), '-1')).toBe('number expected');
    expect(valueProblem(field('double', { negatable: true }), '-1')).toBeNull();
  });

  it('checks whole activities: unknown path, malformed value, deletes of entries', () => {
    const key = `${W_IN}.Eigengewicht`;
    expect(activityProblem('WAGON', key, ACTIVITY_TYPES.XML_MODIFICATION, json(at('23500')))).toBeNull();
    expect(activityProblem('WAGON', key, ACTIVITY_TYPES.XML_MODIFICATION, json(at('23,5')))).toBe('number expected');
    expect(activityProblem('WAGON', key, ACTIVITY_TYPES.XML_MODIFICATION, '{oops')).toBe('object with value expected');
    expect(activityProblem('WAGON', `${W_IN}.Feld`, ACTIVITY_TYPES.XML_MODIFICATION, json(at('x')))).toBe(
      'no such field',
    );
    // A field kept on one side only has no value on the other.
    expect(activityProblem('WAGON', `${W_OUT}.LetztesLadegut`, ACTIVITY_TYPES.XML_MODIFICATION, json(at('x')))).toBe(
      'no such field on the outgoing side',
    );
    expect(
      activityProblem('WAGON', `${W_IN}.LetztesLadegut`, ACTIVITY_TYPES.XML_MODIFICATION, json(at('x'))),
    ).toBeNull();
    const bogie = `${W_OUT}.Understructure.BogieCollection.Bogie[1]`;
    expect(activityProblem('WAGON', bogie, ACTIVITY_TYPES.XML_DELETE, 'null')).toBeNull();
    expect(activityProblem('WAGON', bogie, ACTIVITY_TYPES.XML_MODIFICATION, json(at('x')))).toBe(
      'a list entry can only be deleted',
    );
  });
});

describe('tab layout and progress', () => {
  const basedata = findTab('WAGON', 'basedata')!;

  it('shows the base bogie for two axles and the bogie list above, per side', () => {
    const values = newWagon();
    const chapters = (v: Values) => layoutTab('WAGON', basedata, v).chapters.map((c) => c.chapter.id);
    expect(chapters(values)).toEqual(['wagon']);
    values[`${W_IN}.AnzahlAchsen`] = at('2');
    values[`${W_OUT}.AnzahlAchsen`] = at('4');
    expect(chapters(values)).toEqual(['wagon', 'baseBogie', 'bogies']);
    const baseBogie = layoutTab('WAGON', basedata, values).chapters[1]!;
    // Two axles coming in, four going out: the base bogie block shows on the incoming side only.
    expect(baseBogie.rows.every((row) => row.in && !row.out)).toBe(true);
  });

  it('hides a field until its condition holds on that side', () => {
    const values = newWagon();
    const keys = () =>
      allRows(layoutTab('WAGON', basedata, values))
        .filter((row) => row.field.path === 'TSIZulassungsstelle')
        .flatMap((row) => [row.in?.key, row.out?.key].filter(Boolean));
    expect(keys()).toEqual([]);
    values[`${W_OUT}.TSIApproval`] = at(true);
    expect(keys()).toEqual([`${W_OUT}.TSIZulassungsstelle`]);
  });

  it('counts filled outgoing fields, ignoring ignoreProgress, and colours the bar', () => {
    const values = newWagon();
    const before = tabProgress('WAGON', basedata, values);
    expect(before.filled).toBe(1); // the wagon number
    values[`${W_OUT}.Eigengewicht`] = at('23500');
    values[`${W_OUT}.Bemerkung`] = at('ignored by progress');
    values[`${W_IN}.Halterkurzkennzeichen`] = at('incoming does not count');
    const after = tabProgress('WAGON', basedata, values);
    expect(after).toMatchObject({ filled: 2, total: before.total });
    expect([progressColour(20), progressColour(21), progressColour(60), progressColour(61)]).toEqual([
      'error',
      'warning',
      'warning',
      'success',
    ]);
  });

  it('counts every wheelset of the wagon in the wheelsets tab', () => {
    const tab = findTab('WAGON', 'wheelsets')!;
    const values = newWagon();
    const { total, filled } = tabProgress('WAGON', tab, values);
    const perWheelset = allRows(layoutTab('WAGON', tab, values, '1')).filter((r) => r.out && !r.field.ignoreProgress);
    expect(total).toBe(4 * perWheelset.length);
    expect(filled).toBe(4); // the outgoing wheelset numbers
  });
});

describe('collections', () => {
  const basedata = findTab('WAGON', 'basedata')!;
  const bogies = (values: Values) =>
    layoutTab('WAGON', basedata, values).chapters.find((c) => c.collection)!.collection!;

  it('adds an entry on both sides, sets the count, offers only unused values, removes both sides', () => {
    const values = newWagon();
    values[`${W_IN}.AnzahlAchsen`] = at('4');
    values[`${W_OUT}.AnzahlAchsen`] = at('4');
    expect(bogies(values).addable).toEqual(['1', '2', '3', '4', '5', '6']);
    apply(values, addEntryWrites(values, bogies(values), '2'));
    expect(values[`${W_IN}.Understructure.BogieCollection.Bogie[0].PositionDrehgestell`]).toMatchObject({ value: '2' });
    expect(values[`${W_OUT}.Understructure.BogieCollection.Bogie[0].PositionDrehgestell`]).toMatchObject({
      value: '2',
    });
    expect(values[`${W_OUT}.AnzahlDrehgestelle`]).toMatchObject({ value: '1' });
    apply(values, addEntryWrites(values, bogies(values), '1'));
    const view = bogies(values);
    expect(view.entries.map((e) => [e.entry.value, e.entry.index.out])).toEqual([
      ['1', 1],
      ['2', 0],
    ]);
    expect(view.addable).not.toContain('1');
    expect(view.removable).toEqual(['1', '2']);
    expect(addEntryWrites(values, view, '1')).toEqual([]); // used: refused
    values[`${W_OUT}.Understructure.BogieCollection.Bogie[0].Achsabstand`] = at('1800');
    apply(values, removeEntryWrites(values, bogies(values), '2'));
    expect(Object.keys(values).some((key) => key.includes('Bogie[0]'))).toBe(false);
    expect(values[`${W_OUT}.AnzahlDrehgestelle`]).toMatchObject({ value: '1' });
  });

  it('keeps at least the minimum: the wagon has 2 wheelsets at least, 8 at most', () => {
    const tab = findTab('WAGON', 'wheelsets')!;
    const values = newWagon();
    expect(perEntrySummary('WAGON', tab, values)!.removable).toHaveLength(4);
    for (const position of ['1', '2'])
      apply(values, removeEntryWrites(values, perEntrySummary('WAGON', tab, values)!, position));
    expect(perEntrySummary('WAGON', tab, values)!.removable).toEqual([]);
    while (perEntrySummary('WAGON', tab, values)!.addable.length > 0) {
      const summary = perEntrySummary('WAGON', tab, values)!;
      apply(values, addEntryWrites(values, summary, lowestUnused(summary.addable)!));
    }
    const summary = perEntrySummary('WAGON', tab, values)!;
    expect(summary.entries.map((e) => e.entry.value)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(values[`${W_OUT}.AnzahlAchsen`]).toMatchObject({ value: '8' });
  });

  it('creates an outgoing-only wheelset on the incoming side with the first write, at an index of its own', () => {
    const tab = findTab('WAGON', 'wheelsets')!;
    const values = newWagon();
    const row = allRows(layoutTab('WAGON', tab, values, '3')).find((r) => r.field.path === 'Wheelsetnumber')!;
    expect(row.in?.create).toEqual([
      { key: `${W_IN}.Understructure.WheelsetCollection.Wheelset[2].Position`, value: '3' },
    ]);
    expect(row.out).toMatchObject({
      key: `${W_OUT}.Understructure.WheelsetCollection.Wheelset[2].Wheelsetnumber`,
      create: [],
    });
  });

  it('takes over every filled incoming value of the tab', () => {
    const tab = findTab('WHEELSET', 'basedata')!;
    const values: Record<string, unknown> = { [`${R_IN}.OwnerMark`]: at('DB'), [`${R_IN}.CaseType`]: at('ZL') };
    const writes = takeOverWrites(layoutTab('WHEELSET', tab, values), values);
    expect(writes).toEqual([
      { key: `${R_OUT}.OwnerMark`, value: 'DB' },
      { key: `${R_OUT}.CaseType`, value: 'ZL' },
    ]);
  });
});

describe('recalculation after a save', () => {
  it('computes SrMass from AR and both flange thicknesses, or names what is missing', () => {
    const values: Record<string, unknown> = { [`${R_OUT}.ArDimension`]: at('1360') };
    expect(recalculate('WHEELSET', values, `${R_OUT}.ArDimension`)).toEqual({
      kind: 'missing',
      field: 'SrMass',
      parameters: ['SdLeft', 'SdRight'],
    });
    values[`${R_OUT}.Wheels.Wheel[0].Sd`] = at('32.5');
    values[`${R_OUT}.Wheels.Wheel[1].Sd`] = at('31.8');
    expect(recalculate('WHEELSET', values, `${R_OUT}.Wheels.Wheel[1].Sd`)).toEqual({
      kind: 'write',
      write: { key: `${R_OUT}.SrMass`, value: '1424.300' },
    });
    expect(recalculate('WHEELSET', values, `${R_OUT}.OwnerMark`)).toEqual({ kind: 'none' });
  });

  it('works inside a wagon wheelset too', () => {
    const base = `${W_IN}.Understructure.WheelsetCollection.Wheelset[5]`;
    const values = {
      [`${base}.ArDimension`]: at('1359.5'),
      [`${base}.Wheels.Wheel[0].Sd`]: at('30'),
      [`${base}.Wheels.Wheel[1].Sd`]: at('29.9'),
    };
    expect(recalculate('WAGON', values, `${base}.ArDimension`)).toMatchObject({
      write: { key: `${base}.SrMass`, value: '1419.400' },
    });
  });

  it('fills every calculated value its inputs allow for a document, keeping a stored one', () => {
    const base = `${W_IN}.Understructure.WheelsetCollection.Wheelset[5]`;
    const values = {
      [`${R_OUT}.ArDimension`]: at('1360'),
      [`${R_OUT}.Wheels.Wheel[0].Sd`]: at('32.5'),
      [`${R_OUT}.Wheels.Wheel[1].Sd`]: at('31.8'),
      [`${R_IN}.ArDimension`]: at('1360'), // no flange thickness: nothing to compute
    };
    const at2026 = new Date('2026-11-27T00:00:00Z');
    const filled = withCalculatedValues('WHEELSET', values, at2026);
    expect(valueOf(filled[`${R_OUT}.SrMass`])).toBe('1424.300');
    expect(filled[`${R_IN}.SrMass`]).toBeUndefined();
    const kept = withCalculatedValues('WHEELSET', { ...values, [`${R_OUT}.SrMass`]: at('1424.000') }, at2026);
    expect(valueOf(kept[`${R_OUT}.SrMass`])).toBe('1424.000');
    const wagon = withCalculatedValues(
      'WAGON',
      {
        [`${base}.ArDimension`]: at('1359.5'),
        [`${base}.Wheels.Wheel[0].Sd`]: at('30'),
        [`${base}.Wheels.Wheel[1].Sd`]: at('29.9'),
      },
      at2026,
    );
    expect(valueOf(wagon[`${base}.SrMass`])).toBe('1419.400');
  });

  it('every tab of both order types lays out without values', () => {
    for (const type of ALL_ORDER_TYPES) {
      for (const tab of CATALOGUE[type]) expect(() => layoutTab(type, tab, {})).not.toThrow();
    }
  });
});

describe('limits of measured values', () => {
  const wheel = `${R_OUT}.Wheels.Wheel[0]`;
  const sd = resolveKey('WHEELSET', `${wheel}.Sd`)!.field!;

  it('warn by the tread diameter band, never for values inside, and fall back to the widest band without D', () => {
    const values: Record<string, unknown> = { [`${wheel}.Sd`]: at('23') };
    expect(limitWarning(sd, values, `${wheel}.Sd`, wheel)).toBeNull(); // no D: 22–33
    values[`${wheel}.Laufkreisdurchmesser`] = at('800'); // 330–840: 27.5–33
    expect(limitWarning(sd, values, `${wheel}.Sd`, wheel)).toMatchObject({ min: 27.5, max: 33 });
    values[`${wheel}.Laufkreisdurchmesser`] = at('900');
    expect(limitWarning(sd, values, `${wheel}.Sd`, wheel)).toBeNull();
    values[`${wheel}.Sd`] = at('33.5');
    expect(limitWarning(sd, values, `${wheel}.Sd`, wheel)?.source).toContain('EisbBBV');
  });

  it("judge SR of the wheelset by the wheels' diameter", () => {
    const sr = resolveKey('WHEELSET', `${R_OUT}.SrMass`)!.field!;
    const values = {
      [`${R_OUT}.SrMass`]: at('1412.000'),
      [`${R_OUT}.Wheels.Wheel[0].Laufkreisdurchmesser`]: at('700'),
    };
    expect(limitWarning(sr, values, `${R_OUT}.SrMass`, R_OUT)).toMatchObject({ min: 1415, max: 1426 });
  });
});

describe('collections shown under a condition', () => {
  it('hide the hand brakes until the wagon has one, per side', () => {
    const tab = findTab('WAGON', 'brake')!;
    const chapter = (values: Values) =>
      layoutTab('WAGON', tab, values).chapters.find((c) => c.chapter.id === 'handBrake')!;
    expect(chapter({}).collection).toBeUndefined();
    const values = { [`${W_OUT}.Understructure.Brake.HandBrake.Vorhanden`]: at(true) };
    expect(chapter(values).collection?.addable).toEqual(['1', '2', '3', '4']);
  });
});

describe('the shrink fit of a journal', () => {
  it('is computed in its own entry from bore and ring diameter, in µm', () => {
    const journal = `${R_OUT}.Axle.Journals.Journal[1]`;
    const values: Record<string, unknown> = { [`${journal}.AxleStubBore`]: at('130.045') };
    expect(recalculate('WHEELSET', values, `${journal}.AxleStubBore`)).toEqual({
      kind: 'missing',
      field: 'ShrinkFit',
      parameters: ['RingDiameter'],
    });
    values[`${journal}.RingDiameter`] = at('130.000');
    const result = recalculate('WHEELSET', values, `${journal}.RingDiameter`);
    expect(result).toEqual({ kind: 'write', write: { key: `${journal}.ShrinkFit`, value: '45' } });
    if (result.kind !== 'write') return;
    const field = resolveKey('WHEELSET', result.write.key)!.field!;
    expect(valueProblem(field, result.write.value)).toBeNull();
  });
});

describe('the load limit grid', () => {
  const tab = findTab('WAGON', 'loadLimitGrid')!;
  const letters = (values: Values, unfiltered = false) =>
    layoutTab('WAGON', tab, values, undefined, { unfiltered })
      .chapters.find((c) => c.chapter.id === 'loadLimitGrid100')!
      .rows.map((row) => row.field.path.replace('LoadLimitGrid.', ''));

  it('shows the letters of the incoming grid type on both sides, all of them without the filter', () => {
    expect(filterMissing('WAGON', tab, {})).toBe(true);
    const values = { [`${W_IN}.LoadLimitGrid.Lastgrenzenrastertyp`]: at('A-B1-B2-C2-C3-C4') };
    expect(filterMissing('WAGON', tab, values)).toBe(false);
    expect(letters(values)).toEqual(['A100', 'B1100', 'B2100', 'C2100', 'C3100', 'C4100']);
    // The outgoing side follows the incoming type, whatever the outgoing type says.
    const row = layoutTab('WAGON', tab, values).chapters[1]!.rows[0]!;
    expect(row.out?.key).toBe(`${W_OUT}.LoadLimitGrid.A100`);
    expect(letters(values, true)).toHaveLength(15);
  });

  it('shows the fields of the chosen CM grid kind only', () => {
    const cm = (values: Values) =>
      layoutTab('WAGON', tab, values)
        .chapters.find((c) => c.chapter.id === 'cmGrid')!
        .rows.filter((row) => row.out)
        .map((row) => row.field.path.replace('LoadLimitGrid.', ''));
    expect(cm({})).toEqual(['CmRasterArt']);
    expect(cm({ [`${W_OUT}.LoadLimitGrid.CmRasterArt`]: at('CMD') })).toEqual(['CmRasterArt', 'CMD2', 'CMD3', 'CMD4']);
    const kind = resolveKey('WAGON', `${W_OUT}.LoadLimitGrid.CmRasterArt`)!.field!;
    expect(valueProblem(kind, 'CMX')).toBe('one of CM, CMD expected');
  });
});

describe('buffer heights', () => {
  it('show Z11 only for the matching buffer position', () => {
    const tab = findTab('WAGON', 'drawAndBufferingGear')!;
    const buffer = `${W_OUT}.Understructure.DrawAndBuffingGear.BufferCollection.Buffer`;
    const values = { [`${buffer}[0].Pufferposition`]: at('2R'), [`${buffer}[1].Pufferposition`]: at('1L') };
    const heights = layoutTab('WAGON', tab, values)
      .chapters.find((c) => c.collection?.collection.path.endsWith('BufferCollection.Buffer'))!
      .collection!.entries.map((e) => [
        e.entry.value,
        e.rows.filter((r) => r.field.path.startsWith('Z11')).map((r) => r.field.path),
      ]);
    expect(heights).toEqual([
      ['1L', ['Z11_1L']],
      ['2R', ['Z11_2R']],
    ]);
  });
});
