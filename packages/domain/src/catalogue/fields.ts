import type { CollectionDef, FieldDef, Unit } from './model.ts';

/** The differentiator values from..to as text: positions 1–8, compartments 1–6. */
export const numbers = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/** A measured value of one unit and fixed decimals: `const kN = measure('kN', 0)`, then `kN('Bruchlast')`. */
export const measure =
  (unit: Unit | undefined, decimals: number, base: Partial<FieldDef> = {}) =>
  (path: string, extra: Partial<FieldDef> = {}): FieldDef => ({
    path,
    kind: 'double',
    ...(unit ? { unit } : {}),
    decimals,
    ...base,
    ...extra,
  });

/** A measured value of one unit whose decimals differ per field: `const mm = measureIn('mm')`, `mm('Sd', 1)`. */
export const measureIn =
  (unit: Unit) =>
  (path: string, decimals: number, extra: Partial<FieldDef> = {}): FieldDef => ({
    path,
    kind: 'double',
    unit,
    decimals,
    ...extra,
  });

/**
 * A list with one entry for the left and one for the right side (wheels, journals, axle boxes): always both, keyed
 * by a side field on the `ListSeite` list, never added or removed.
 */
export const bySide = (path: string, side: string, fields: readonly FieldDef[]): CollectionDef => ({
  path,
  differentiator: { path: side, kind: 'option', list: 'ListSeite', ignoreProgress: true },
  values: ['L', 'R'],
  min: 2,
  max: 2,
  fixed: true,
  fields,
});
