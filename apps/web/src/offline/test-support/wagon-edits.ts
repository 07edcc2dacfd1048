/** For tests only: catalogued wagon fields, and random edits of them for fast-check. */
import fc from 'fast-check';
import { IN, OUT } from '../../../../server/src/test/orders.ts';

/** A catalogued field, and a value that fits it for a number. */
export interface WagonField {
  key: string;
  value: (n: number) => string;
}

/** Catalogued wagon fields, with values that fit them (the server refuses anything else with 400). */
export const WAGON_FIELDS: readonly WagonField[] = [
  { key: `${OUT}.Eigengewicht`, value: (n) => String(22_000 + n) },
  { key: `${IN}.Eigengewicht`, value: (n) => String(21_000 + n) },
  { key: `${OUT}.Halterkurzkennzeichen`, value: (n) => `D-H${n}` },
  { key: `${IN}.LetztesLadegut`, value: (n) => `Ladegut ${n}` },
];

/** An edit: which of the fields it changes, and the number its value is made of; null deletes the field. */
export interface FieldEdit {
  field: number;
  value: number | null;
}

/** The arbitraries of an edit of one of `fields`, for an `fc.record` of a step. */
export const fieldEditArbs = (fields: readonly WagonField[]) => ({
  field: fc.integer({ min: 0, max: fields.length - 1 }),
  value: fc.option(fc.integer({ min: 0, max: 99 }), { freq: 6 }),
});

/** The key and value an edit of one of `fields` records. */
export function editedField(fields: readonly WagonField[], edit: FieldEdit): { key: string; value: string | null } {
  const field = fields[edit.field]!;
  return { key: field.key, value: edit.value === null ? null : field.value(edit.value) };
}
