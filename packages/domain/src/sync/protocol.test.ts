import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isServerActivityList, serverActivitySchema } from './protocol.ts';

const schema = z.array(serverActivitySchema);
const valid = {
  id: '0b7f4c1e-3c1a-4d2b-9f3e-2a1b3c4d5e6f',
  oI: '1c8e5d2f-4d2b-4e3c-8a4f-3b2c4d5e6f70',
  k: '$.Body.Wagen.technicalWaggonIncoming.Bemerkung',
  t: 'XML_MODIFICATION',
  oV: '{"value":"x"}',
  c: '2026-01-02T03:04:05.678Z',
  lm: '2026-01-02T03:04:05.999Z',
  co: 7,
  re: false,
  mod: 'Schlosser',
  rs: null,
  sn: 3,
  dv: null,
  ai: 1,
  au: 'Name',
};
type Field = keyof typeof valid;
const fields = Object.keys(valid) as Field[];

/** A value of the kinds the fields take, and ones they must refuse. */
const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0.5, -1, 2 ** 53, 2 ** 31, Number.NaN, Infinity, -0),
  fc.string(),
  fc.uuid(),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'not-a-uuid', valid.id.toUpperCase()),
  fc.constant([]),
  fc.constant({}),
);
/** A row from the valid one with some fields replaced or removed, and extra fields. */
const row = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...fields), anyValue, { maxKeys: 3 }),
    fc.subarray(fields, { maxLength: 2 }),
    fc.dictionary(fc.string(), anyValue, { maxKeys: 2 }),
  )
  .map(([replaced, removed, extra]) => {
    const result: Record<string, unknown> = { ...extra, ...valid, ...replaced };
    for (const field of removed) delete result[field];
    return result;
  });

describe('isServerActivityList', () => {
  it('accepts exactly what the zod schema of a pull accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(row, { maxLength: 3 }), anyValue, fc.anything()), (answer) => {
        expect(isServerActivityList(answer)).toBe(schema.safeParse(answer).success);
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts a valid answer and refuses one bad field in a long one', () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ ...valid, co: i + 1 }));
    expect(isServerActivityList(rows)).toBe(true);
    expect(isServerActivityList([...rows, { ...valid, co: '8' }])).toBe(false);
    expect(isServerActivityList([...rows, { ...valid, id: 'x' }])).toBe(false);
    expect(isServerActivityList([...rows, null])).toBe(false);
    expect(isServerActivityList({ rows })).toBe(false);
  });
});
