import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_TYPES as T,
  type Activity,
  type ActivityType,
  compareActivities,
  contiguousCounter,
  foldActivities,
  type SentState,
  SENT_STATES,
  UNSENT_COUNTER,
  undoLast,
} from './activity.ts';
import { openConflicts, seenAll, seenForEdit, standingChanges } from './conflicts.ts';
import { extendFold, foldOrder, type OrderFold, seenAllIn, seenForEditIn, undoLastIn } from './order-fold.ts';

const ENTRY = '$.Body.Wagen.Wheelset[0]';
const KEYS = ['$.Body.Wagen.A', '$.Body.Wagen.B', ENTRY, `${ENTRY}.C`, `${ENTRY}.D`, '$.status'];
const DEVICES = ['device-a', 'device-b', null];

const arbitraryRow = (id: number) =>
  fc.record({
    id: fc.constant(`id-${String(id).padStart(3, '0')}`),
    orderId: fc.constant('order-1'),
    key: fc.constantFrom(...KEYS),
    outputValue: fc.constantFrom('{"value":"1"}', '{"value":"2"}', '"IN_QA"', '"DONE"', '{broken', 'null'),
    activityType: fc.constantFrom<ActivityType>(...Object.values(T)),
    created: fc.constantFrom('2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z'),
    counter: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constant(UNSENT_COUNTER)),
    counterLocal: fc.integer({ min: 0, max: 3 }),
    reverted: fc.boolean(),
    sent: fc.constantFrom<SentState>(0, 1, 2, 3),
    seen: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
    device: fc.constantFrom(...DEVICES),
    owner: fc.constantFrom(1, 2),
    attempted: fc.boolean(),
  }) as fc.Arbitrary<Activity>;

const arbitraryLog = (from: number, maxLength: number) =>
  fc
    .integer({ min: 0, max: maxLength })
    .chain((length) => fc.tuple(...Array.from({ length }, (_, i) => arbitraryRow(from + i))));

/** A new change of this device, made in the editor: unsent, in effect, above every local counter so far. */
const arbitraryEdit = (id: number) =>
  fc.record({
    key: fc.constantFrom(...KEYS),
    activityType: fc.constantFrom<ActivityType>(T.XML_MODIFICATION, T.XML_DELETE, T.ORDER_STATUS_MODIFICATION),
    outputValue: fc.constantFrom('{"value":"1"}', '{"value":"3"}', '"IN_WORK"'),
    seen: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
    device: fc.constantFrom('device-a', 'device-b'),
    owner: fc.constantFrom(1, 2),
    id: fc.constant(`new-${String(id).padStart(3, '0')}`),
  });

const mine = (row: Activity) => row.owner === 1;

/** Every part of a fold against the domain's function of the whole log. */
function expectSameAsWholeLog(fold: OrderFold, rows: readonly Activity[]) {
  expect(fold.state).toEqual(foldActivities(rows));
  expect(new Map([...fold.fields].map(([key, field]) => [key, field.standing]))).toEqual(standingChanges(rows));
  expect([...fold.conflicts.values()].flat().sort((a, b) => compareActivities(a.by, b.by))).toEqual(
    openConflicts(rows),
  );
  expect(fold.contiguous).toBe(contiguousCounter(rows));
  expect(undoLastIn(fold, mine)).toEqual(undoLast(rows, mine));
  for (const key of KEYS) {
    expect(seenForEditIn(fold, key, true)).toBe(seenForEdit(rows, key, true));
    expect(seenForEditIn(fold, key, false)).toBe(seenForEdit(rows, key, false));
    expect(seenAllIn(fold, key)).toBe(seenAll(rows, key));
  }
}

describe('the editor fold', () => {
  it('is, part by part, the domain functions of the whole log', () => {
    fc.assert(
      fc.property(arbitraryLog(0, 14), (rows) => expectSameAsWholeLog(foldOrder(rows), rows)),
      { numRuns: 400 },
    );
  });

  it('carried forward by new edits, equals the fold of the whole log, and never sorts the log for them', () => {
    fc.assert(
      fc.property(
        arbitraryLog(0, 12),
        fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbitraryEdit(i)))),
        (base, edits) => {
          let rows: Activity[] = [...base];
          let fold = foldOrder(rows);
          for (const edit of edits) {
            const counterLocal = rows.reduce(
              (next, row) => (row.sent === SENT_STATES.UNSENT ? Math.max(next, row.counterLocal + 1) : next),
              0,
            );
            const row: Activity = {
              ...edit,
              orderId: 'order-1',
              created: '2025-01-03T00:00:00.000Z',
              counter: UNSENT_COUNTER,
              counterLocal,
              reverted: false,
              sent: SENT_STATES.UNSENT,
            };
            const last = fold.effective.at(-1);
            const extended = extendFold(fold, row);
            // It goes on top unless an unsent row of another state (refused, order unknown) holds a higher counter.
            if (!last || compareActivities(last, row) < 0) expect(extended).not.toBeNull();
            rows = [...rows, row];
            fold = extended ?? foldOrder(rows);
            expectSameAsWholeLog(fold, rows);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the identity of values and conflicts a new edit does not touch', () => {
    const row = (id: string, key: string, value: string, fields: Partial<Activity> = {}): Activity => ({
      id,
      orderId: 'order-1',
      key,
      outputValue: JSON.stringify({ value }),
      activityType: T.XML_MODIFICATION,
      created: '2025-01-01T00:00:00.000Z',
      counter: UNSENT_COUNTER,
      counterLocal: 0,
      reverted: false,
      sent: SENT_STATES.UNSENT,
      ...fields,
    });
    const fold = foldOrder([row('a', KEYS[0]!, '1', { counter: 1, sent: SENT_STATES.SENT }), row('b', KEYS[1]!, '2')]);
    const next = extendFold(fold, row('c', KEYS[1]!, '3', { counterLocal: 1 }));
    expect(next).not.toBeNull();
    expect(next!.state.values[KEYS[0]!]).toBe(fold.state.values[KEYS[0]!]);
    expect(next!.state.values[KEYS[1]!]).toEqual({ value: '3' });
    expect(next!.conflicts).toBe(fold.conflicts);
    // A sent row, or one that sorts below the last, is folded with the whole log instead.
    expect(extendFold(fold, row('d', KEYS[1]!, '4', { counter: 2, sent: SENT_STATES.SENT }))).toBeNull();
    expect(extendFold(next!, row('e', KEYS[1]!, '4', { counterLocal: 0 }))).toBeNull();
  });

  it('defines a key like __proto__ as a value, never as the prototype', () => {
    const proto: Activity = {
      id: 'p',
      orderId: 'order-1',
      key: '__proto__',
      outputValue: '{"value":"x"}',
      activityType: T.XML_MODIFICATION,
      created: '2025-01-01T00:00:00.000Z',
      counter: UNSENT_COUNTER,
      counterLocal: 0,
      reverted: false,
      sent: SENT_STATES.UNSENT,
    };
    const fold = extendFold(foldOrder([]), proto)!;
    expect(Object.getPrototypeOf(fold.state.values)).toBe(Object.prototype);
    expect(Object.keys(fold.state.values)).toEqual(['__proto__']);
    expect(extendFold(fold, { ...proto, id: 'q', key: 'other', counterLocal: 1 })!.state.values).toEqual(
      foldActivities([proto, { ...proto, id: 'q', key: 'other', counterLocal: 1 }]).values,
    );
  });
});
