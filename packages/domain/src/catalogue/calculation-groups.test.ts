import { describe, expect, it } from 'vitest';
import {
  type CalculationGroup,
  calculationGroups,
  inCalculationGroup,
  isCalculationInput,
  missingCalculationInputs,
} from './calculation-groups.ts';
import { attributeValue } from './values.ts';

const R_OUT = '$.Body.Radsatz.technicalWheelsetOutgoing';
const R_IN = '$.Body.Radsatz.technicalWheelsetIncoming';
const WHEELSET = (i: number) => `$.Body.Wagen.technicalWaggonOutgoing.Understructure.WheelsetCollection.Wheelset[${i}]`;
const at = new Date('2026-11-20T08:00:00Z');
const values = (entries: Record<string, string>) =>
  Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, attributeValue(value, at)]));

const only = (groups: CalculationGroup[]): CalculationGroup => {
  expect(groups).toHaveLength(1);
  return groups[0]!;
};

/** What a warning would name: field paths, with the entry where there is one. */
const named = (group: CalculationGroup, stored: Record<string, string>, type: 'WAGON' | 'WHEELSET' = 'WHEELSET') =>
  missingCalculationInputs(type, group, values(stored))?.map(({ field, entry }) =>
    entry ? `${field.path}@${entry.value}` : field.path,
  ) ?? null;

describe('calculationGroups', () => {
  it("SR's group is the wheelset's measures and its wheels, across the two tabs a wheelset order shows them in", () => {
    const sr = only(calculationGroups('WHEELSET', `${R_OUT}.ArDimension`));
    expect(sr).toMatchObject({ key: `${R_OUT}.SrMass`, prefix: R_OUT });
    expect([...sr.chapters].sort()).toEqual(['wheels', 'wheelsetMeasures']);
    // The flange thickness and the wheel's other measures are in it; base data and the axle are not.
    for (const key of [`${R_OUT}.Wheels.Wheel[0].Sd`, `${R_OUT}.Wheels.Wheel[1].Sh`, `${R_OUT}.SrMass`]) {
      expect(inCalculationGroup('WHEELSET', sr, key), key).toBe(true);
    }
    for (const key of [`${R_OUT}.OwnerMark`, `${R_OUT}.Wheels.Wheel[0].Br`, `${R_IN}.ArDimension`]) {
      expect(inCalculationGroup('WHEELSET', sr, key), key).toBe(false);
    }
    expect(isCalculationInput('WHEELSET', sr, `${R_OUT}.Wheels.Wheel[1].Sd`)).toBe(true);
    expect(isCalculationInput('WHEELSET', sr, `${R_OUT}.Wheels.Wheel[1].Sh`)).toBe(false);
    expect(calculationGroups('WHEELSET', `${R_OUT}.OwnerMark`)).toEqual([]);
  });

  it("a wagon's wheelsets each have their own SR", () => {
    const second = only(calculationGroups('WAGON', `${WHEELSET(1)}.Wheels.Wheel[0].Sd`));
    expect(second.key).toBe(`${WHEELSET(1)}.SrMass`);
    expect(inCalculationGroup('WAGON', second, `${WHEELSET(1)}.ArDimension`)).toBe(true);
    expect(inCalculationGroup('WAGON', second, `${WHEELSET(2)}.ArDimension`)).toBe(false);
  });

  it("the shrink fit's group is its axle journal", () => {
    const journal = `${R_OUT}.Axle.Journals.Journal[1]`;
    const fit = only(calculationGroups('WHEELSET', `${journal}.AxleStubBore`));
    expect(fit).toMatchObject({ key: `${journal}.ShrinkFit`, prefix: journal });
    expect(inCalculationGroup('WHEELSET', fit, `${journal}.RingDiameter`)).toBe(true);
    expect(inCalculationGroup('WHEELSET', fit, `${R_OUT}.Axle.Journals.Journal[0].RingDiameter`)).toBe(false);
  });
});

describe('missingCalculationInputs', () => {
  const sr = only(calculationGroups('WHEELSET', `${R_OUT}.ArDimension`));
  const left = `${R_OUT}.Wheels.Wheel[0]`;
  const right = `${R_OUT}.Wheels.Wheel[1]`;

  it('says nothing while no input or every input is filled', () => {
    expect(named(sr, {})).toBeNull();
    expect(named(sr, { [`${left}.Sh`]: '30' })).toBeNull();
    expect(named(sr, { [`${R_OUT}.ArDimension`]: '1360', [`${left}.Sd`]: '32.5', [`${right}.Sd`]: '31.8' })).toBeNull();
  });

  it('names the missing inputs, by field and wheel, when some are filled', () => {
    expect(named(sr, { [`${R_OUT}.ArDimension`]: '1360' })).toEqual(['Sd@L', 'Sd@R']);
    expect(named(sr, { [`${R_OUT}.ArDimension`]: '1360', [`${left}.Sd`]: '32.5' })).toEqual(['Sd@R']);
    expect(named(sr, { [`${right}.Sd`]: '31.8' })).toEqual(['ArDimension', 'Sd@L']);
  });

  it("reads a wagon's wheelset in its own scope", () => {
    const second = only(calculationGroups('WAGON', `${WHEELSET(1)}.ArDimension`));
    expect(
      named(second, { [`${WHEELSET(1)}.ArDimension`]: '1360', [`${WHEELSET(0)}.Wheels.Wheel[0].Sd`]: '30' }, 'WAGON'),
    ).toEqual(['Sd@L', 'Sd@R']);
  });

  it('names the other diameter of a journal', () => {
    const journal = `${R_OUT}.Axle.Journals.Journal[0]`;
    const fit = only(calculationGroups('WHEELSET', `${journal}.RingDiameter`));
    expect(named(fit, { [`${journal}.AxleStubBore`]: '130.05' })).toEqual(['RingDiameter']);
    expect(named(fit, { [`${journal}.AxleStubBore`]: '130.05', [`${journal}.RingDiameter`]: '129.9' })).toBeNull();
  });
});
