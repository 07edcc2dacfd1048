import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_TYPES as T,
  type Activity,
  type ActivityType,
  foldActivities,
  isSameOrBelow,
  markReverted,
  nextCounterLocal,
  SENT_STATES,
  type SentState,
  undoLast,
  UNSENT_COUNTER,
} from './activity.ts';

const IN = '$.Body.Wagen.technicalWaggonIncoming';

let sequence = 0;
/** A sent activity by default; pass counter: UNSENT_COUNTER and sent: 0 for a local one. */
function activity(overrides: Partial<Activity> & Pick<Activity, 'key'>): Activity {
  sequence += 1;
  return {
    id: `id-${sequence}`,
    orderId: 'order-1',
    outputValue: '""',
    activityType: T.XML_MODIFICATION,
    created: '2025-01-01T00:00:00.000Z',
    counter: sequence,
    counterLocal: sequence,
    reverted: false,
    sent: SENT_STATES.SENT,
    ...overrides,
  };
}

const unsent = (overrides: Partial<Activity> & Pick<Activity, 'key'>) =>
  activity({ counter: UNSENT_COUNTER, sent: SENT_STATES.UNSENT, ...overrides });

describe('foldActivities', () => {
  it('is empty without activities', () => {
    expect(foldActivities([])).toEqual({ values: {}, status: null, lastCounter: 0 });
  });

  it('applies sent activities in counter order, the latest winning', () => {
    const state = foldActivities([
      activity({ key: `${IN}.Waggonnummer`, outputValue: '"second"', counter: 2 }),
      activity({ key: `${IN}.Waggonnummer`, outputValue: '"first"', counter: 1 }),
      activity({ key: `${IN}.Eigengewicht`, outputValue: '{"value":"23500","unit":"kg"}', counter: 3 }),
    ]);
    expect(state.values).toEqual({
      [`${IN}.Waggonnummer`]: 'second',
      [`${IN}.Eigengewicht`]: { value: '23500', unit: 'kg' },
    });
    expect(state.lastCounter).toBe(3);
  });

  it('puts unsent activities on top of sent ones, in local order, whatever their creation times', () => {
    const key = `${IN}.Waggonnummer`;
    const state = foldActivities([
      unsent({ key, outputValue: '"local 2"', counterLocal: 8, created: '2020-01-01T00:00:00.000Z' }),
      unsent({ key, outputValue: '"local 1"', counterLocal: 7, created: '2030-01-01T00:00:00.000Z' }),
      activity({ key, outputValue: '"server"', counter: 40, created: '2029-01-01T00:00:00.000Z' }),
    ]);
    expect(state.values[key]).toBe('local 2');
    expect(state.lastCounter).toBe(40);
  });

  it('skips reverted activities and those of an order unknown to the server', () => {
    const key = `${IN}.AnzahlAchsen`;
    const state = foldActivities([
      activity({ key, outputValue: '"2"', counter: 1 }),
      activity({ key, outputValue: '"4"', counter: 2, reverted: true, sent: SENT_STATES.UNSENT }),
      unsent({ key, outputValue: '"6"', sent: SENT_STATES.ORDER_UNKNOWN }),
    ]);
    expect(state.values[key]).toBe('2');
    // The reverted one still holds counter 2 on the server.
    expect(state.lastCounter).toBe(2);
  });

  it('deletes a key and everything below it, not its siblings with a longer name', () => {
    const list = `${IN}.Understructure.WheelsetCollection.Wheelset`;
    const state = foldActivities([
      activity({ key: `${list}[0].Position`, outputValue: '"1"' }),
      activity({ key: `${list}[1].Position`, outputValue: '"2"' }),
      activity({ key: list, outputValue: '[]' }),
      activity({ key: `${list}Count`, outputValue: '2' }),
      activity({ key: `${IN}.Brake.Type`, outputValue: '"KE"' }),
      activity({ key: list, activityType: T.XML_DELETE, outputValue: '' }),
    ]);
    expect(state.values).toEqual({ [`${list}Count`]: 2, [`${IN}.Brake.Type`]: 'KE' });
  });

  it('lets a value set after a delete stand', () => {
    const key = `${IN}.Brake.Type`;
    const state = foldActivities([
      activity({ key, outputValue: '"KE"', counter: 1 }),
      activity({ key, activityType: T.XML_DELETE, outputValue: '', counter: 2 }),
      unsent({ key, outputValue: '"KK"' }),
    ]);
    expect(state.values).toEqual({ [key]: 'KK' });
  });

  it('keeps a malformed value as its text', () => {
    const state = foldActivities([activity({ key: `${IN}.X`, outputValue: '{broken' })]);
    expect(state.values[`${IN}.X`]).toBe('{broken');
  });

  it('takes the status from the newest status change and keeps it out of the values', () => {
    const status = (outputValue: string, overrides: Partial<Activity> = {}) =>
      activity({ key: '$.status', activityType: T.ORDER_STATUS_MODIFICATION, outputValue, ...overrides });
    expect(foldActivities([status('"IN_QA"', { counter: 5 }), status('"IN_WORK"', { counter: 3 })])).toEqual({
      values: {},
      status: 'IN_QA',
      lastCounter: 5,
    });
    expect(
      foldActivities([
        status('"IN_QA"', { counter: 5 }),
        unsent({ key: '$.status', activityType: T.ORDER_STATUS_MODIFICATION, outputValue: 'DONE' }),
      ]).status,
    ).toBe('DONE');
    expect(foldActivities([status('"IN_QA"', { counter: 1 }), status('"NOT_A_STATUS"', { counter: 2 })]).status).toBe(
      'IN_QA',
    );
    expect(foldActivities([status('"IN_QA"', { counter: 1, reverted: true })]).status).toBeNull();
  });

  it('does not let "__proto__" touch the prototype', () => {
    const state = foldActivities([activity({ key: '__proto__', outputValue: '{"polluted":true}' })]);
    expect(Object.getPrototypeOf(state.values)).toBe(Object.prototype);
    expect(Object.keys(state.values)).toEqual(['__proto__']);
  });

  it('breaks a full tie (the same change loaded twice with different values) the same way in any order', () => {
    const a = unsent({ key: 'k', id: 'same', counterLocal: 1, outputValue: '"x"' });
    const b = { ...a, outputValue: '"y"' };
    expect(foldActivities([a, b])).toEqual(foldActivities([b, a]));
  });

  it('folds any permutation of the same activities to the same state', () => {
    const keys = [`${IN}.A`, `${IN}.A.B`, `${IN}.A[0]`, `${IN}.A[0].C`, `${IN}.AB`, '$.status'];
    const arbitraryActivity = fc.record({
      // Few distinct ids, times and counters, so that ties (the same activity from server and store) are common.
      id: fc.constantFrom('a', 'b'),
      orderId: fc.constant('order-1'),
      key: fc.constantFrom(...keys),
      outputValue: fc.oneof(fc.json(), fc.constantFrom('"IN_QA"', '"DONE"', 'IN_WORK', '{broken', '')),
      activityType: fc.constantFrom<ActivityType>(...Object.values(T)),
      created: fc.constantFrom('2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z'),
      counter: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant(UNSENT_COUNTER)),
      counterLocal: fc.integer({ min: 0, max: 2 }),
      reverted: fc.boolean(),
      sent: fc.constantFrom<SentState>(0, 1, 2),
    });
    fc.assert(
      fc.property(
        fc
          .array(arbitraryActivity, { maxLength: 12 })
          .chain((list) =>
            fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length })),
          ),
        ([original, permuted]) => {
          expect(foldActivities(permuted)).toEqual(foldActivities(original));
          expect(undoLast(permuted, anyone)).toEqual(undoLast(original, anyone));
        },
      ),
      // Ties that matter are rare among random lists; more runs make the property catch a partial order.
      { numRuns: 1000 },
    );
  });
});

describe('nextCounterLocal', () => {
  it('starts at 0 and goes one above the highest', () => {
    expect(nextCounterLocal([])).toBe(0);
    expect(nextCounterLocal([unsent({ key: 'k', counterLocal: 0 })])).toBe(1);
    expect(nextCounterLocal([unsent({ key: 'k', counterLocal: 4 }), activity({ key: 'k', counterLocal: 9 })])).toBe(10);
  });
});

/** Undo of a user whose every change counts as theirs; the own-change rule is tested below. */
const anyone = () => true;

describe('undoLast', () => {
  it('takes back only the user’s own change, never another’s that came later', () => {
    const mine = activity({ key: 'k', counter: 4, owner: 7 });
    const theirs = activity({ key: 'k', counter: 5 });
    const isMine = (a: Activity) => a.owner === 7;
    expect(undoLast([mine, theirs], isMine)).toEqual({ kind: 'revert', id: mine.id });
    expect(undoLast([theirs], isMine)).toBeNull();
  });
  it('has nothing to undo without changes in effect', () => {
    expect(undoLast([], anyone)).toBeNull();
    expect(undoLast([activity({ key: 'k', reverted: true })], anyone)).toBeNull();
  });
  it('reverts an unsent change whose push was tried: the server may have it although no answer came', () => {
    const tried = unsent({ key: 'k', counterLocal: 3, attempted: true });
    expect(undoLast([activity({ key: 'k', counter: 9 }), tried], anyone)).toEqual({ kind: 'revert', id: tried.id });
  });
  it('deletes the newest change when it is unsent', () => {
    const local = unsent({ key: 'k', counterLocal: 3 });
    expect(
      undoLast([local, activity({ key: 'k', counter: 9 }), unsent({ key: 'k', counterLocal: 2 })], anyone),
    ).toEqual({
      kind: 'delete',
      id: local.id,
    });
  });
  it('reverts the newest change when it is sent', () => {
    const newest = activity({ key: 'k', counter: 9 });
    expect(undoLast([activity({ key: 'k', counter: 3 }), newest], anyone)).toEqual({ kind: 'revert', id: newest.id });
  });
  it('steps back past reverted changes, unknown-order changes and status changes', () => {
    const target = activity({ key: 'k', counter: 1 });
    const activities = [
      target,
      markReverted(activity({ key: 'k', counter: 2 })),
      unsent({ key: 'k', sent: SENT_STATES.ORDER_UNKNOWN }),
      unsent({ key: '$.status', activityType: T.ORDER_STATUS_MODIFICATION, outputValue: '"IN_QA"' }),
    ];
    expect(undoLast(activities, anyone)).toEqual({ kind: 'revert', id: target.id });
  });
  it('passes over the activities the server appended to carry out a revert, so undo steps further back', () => {
    const first = activity({ key: 'k', outputValue: '"a"', counter: 1 });
    const second = markReverted(activity({ key: 'k', outputValue: '"b"', counter: 2 }));
    const restoring = activity({ key: 'k', outputValue: '"a"', counter: 3, restores: 2 });
    expect(undoLast([first, { ...second, sent: SENT_STATES.SENT }, restoring], anyone)).toEqual({
      kind: 'revert',
      id: first.id,
    });
  });
  it('restores the previous value once applied', () => {
    const older = activity({ key: 'k', outputValue: '"old"', counter: 1 });
    const newer = activity({ key: 'k', outputValue: '"new"', counter: 2 });
    const undo = undoLast([older, newer], anyone);
    expect(undo).toEqual({ kind: 'revert', id: newer.id });
    expect(foldActivities([older, markReverted(newer)]).values).toEqual({ k: 'old' });
  });
});

describe('isSameOrBelow', () => {
  it('matches the key, its fields and its list entries', () => {
    expect(isSameOrBelow('$.a.b', '$.a.b')).toBe(true);
    expect(isSameOrBelow('$.a.b.c', '$.a.b')).toBe(true);
    expect(isSameOrBelow('$.a.b[2].c', '$.a.b')).toBe(true);
    expect(isSameOrBelow('$.a.bc', '$.a.b')).toBe(false);
    expect(isSameOrBelow('$.a', '$.a.b')).toBe(false);
  });
});
