import { describe, expect, it } from 'vitest';
import { type Activity, ACTIVITY_TYPES, SENT_STATES, UNSENT_COUNTER } from './activity.ts';
import {
  changeValue,
  fieldHistory,
  openConflicts,
  seenAll,
  seenForEdit,
  seenOf,
  standingChanges,
} from './conflicts.ts';

const KEY = '$.Body.Wagen.technicalWaggonOutgoing.Eigengewicht';
const A = 'device-a';
const B = 'device-b';

let sequence = 0;
function change(value: string | null, fields: Partial<Activity> = {}): Activity {
  sequence += 1;
  return {
    id: `id-${sequence}`,
    orderId: 'o',
    key: KEY,
    outputValue: value === null ? 'null' : JSON.stringify({ value, CaptureDate: '2026-11-22T08:00:00.000Z' }),
    activityType: value === null ? ACTIVITY_TYPES.XML_DELETE : ACTIVITY_TYPES.XML_MODIFICATION,
    created: '2026-11-22T08:00:00.000Z',
    counter: sequence,
    counterLocal: 0,
    reverted: false,
    sent: SENT_STATES.SENT,
    ...fields,
  };
}

describe('open conflicts', () => {
  // The server's creation value (counter 1), then B changes it online (2), then A, offline since counter 1, too (3).
  const created = () => change('20000', { counter: 1, seen: 0, device: null });
  const fromB = () => change('Zans-B', { counter: 2, seen: 1, device: B });
  const fromA = () => change('Zans-A', { counter: 3, seen: 1, device: A });

  it('names the value that stood and the write whose author had not seen it, whatever the device clocks say', () => {
    const [c, b, a] = [created(), fromB(), fromA()];
    const lateClock = { ...a, created: '2030-01-01T00:00:00.000Z' };
    expect(openConflicts([a, c, b])).toEqual([{ key: KEY, replaced: b, by: a }]);
    expect(openConflicts([lateClock, c, b])).toEqual([{ key: KEY, replaced: b, by: lateClock }]);
  });

  it('is no conflict when the author had seen the value, wrote the same value, or it is the own device', () => {
    const [c, b] = [created(), fromB()];
    expect(openConflicts([c, b, change('Zans-A', { counter: 3, seen: 2, device: A })])).toEqual([]);
    expect(openConflicts([c, b, change('Zans-B', { counter: 3, seen: 1, device: A })])).toEqual([]);
    expect(openConflicts([c, b, change('Zans-A', { counter: 3, seen: 1, device: B })])).toEqual([]);
  });

  it('judges an unsent change on this device the way the server will once it has a counter', () => {
    const [c, b] = [created(), fromB()];
    const waiting = change('Zans-A', { counter: UNSENT_COUNTER, sent: SENT_STATES.UNSENT, seen: 1, device: A });
    expect(openConflicts([c, b, waiting])).toEqual([{ key: KEY, replaced: b, by: waiting }]);
    const acknowledged = { ...waiting, counter: 3, sent: SENT_STATES.SENT };
    expect(openConflicts([c, b, acknowledged])).toEqual([{ key: KEY, replaced: b, by: acknowledged }]);
    // A second change on the same device builds on the first: no conflict between the two.
    const again = change('Zans-A2', { counter: UNSENT_COUNTER, sent: SENT_STATES.UNSENT, seen: 1, device: A });
    expect(openConflicts([c, b, waiting, again]).map((x) => x.by)).toEqual([waiting]);
  });

  it('stays open until someone who had seen both values changes the field; that decision is a change too', () => {
    const [c, b, a] = [created(), fromB(), fromA()];
    // B keeps their value after seeing the conflict: a change with B's value, having seen counter 3.
    const keepB = change('Zans-B', { counter: 4, seen: 3, device: B });
    expect(openConflicts([c, b, a, keepB])).toEqual([]);
    // A third device that saw only up to counter 2 does not decide it.
    const blind = change('Zans-C', { counter: 4, seen: 2, device: 'device-c' });
    expect(openConflicts([c, b, a, blind]).map((x) => [x.replaced.id, x.by.id])).toEqual([
      [b.id, a.id],
      [a.id, blind.id],
    ]);
    // A decision on A's device that had pulled B's change keeps A's value: A's device saw its own change.
    const keepA = change('Zans-A', { counter: 4, seen: 2, device: A });
    expect(openConflicts([c, b, a, keepA])).toEqual([]);
  });

  it('disappears when either change is undone or refused, and counts clearing the field as a value', () => {
    const [c, b, a] = [created(), fromB(), fromA()];
    expect(openConflicts([c, b, { ...a, reverted: true }])).toEqual([]);
    expect(openConflicts([c, { ...b, reverted: true }, a])).toEqual([]);
    expect(openConflicts([c, b, { ...a, sent: SENT_STATES.REFUSED }])).toEqual([]);
    const cleared = change(null, { counter: 3, seen: 1, device: A });
    expect(openConflicts([c, b, cleared])).toEqual([{ key: KEY, replaced: b, by: cleared }]);
    expect(changeValue(cleared)).toBeNull();
    expect(changeValue(b)).toBe('Zans-B');
  });

  it('never judges changes without a seen counter (older clients), nor a revert the server appended', () => {
    const [c, b] = [created(), fromB()];
    const { seen: _unknown, ...old } = change('Zans-A', { counter: 3, device: A });
    expect(openConflicts([c, b, old])).toEqual([]);
    const a = fromA();
    const restore = change('Zans-B', { counter: 4, seen: 3, device: null, restores: 3 });
    expect(openConflicts([c, b, { ...a, reverted: true }, restore])).toEqual([]);
  });

  it('forgets the fields of a removed list entry: a value typed after it comes back replaces nothing', () => {
    const entry = '$.Body.Wagen.technicalWaggonOutgoing.Radsaetze.Radsatz[2]';
    const inside = `${entry}.Wheelsetnumber`;
    const before = change('318066501236', { key: inside, counter: 5, seen: 4, device: B });
    const removed = change(null, { key: entry, counter: 6, seen: 5, device: B });
    const after = change('318066501244', { key: inside, counter: 7, seen: 0, device: A });
    expect(openConflicts([before, removed, after])).toEqual([]);
    expect(standingChanges([before, removed]).get(inside)).toBeUndefined();
  });

  it('leaves status changes out', () => {
    const status = (value: string, counter: number, seen: number, device: string) =>
      change(null, {
        key: '$.status',
        activityType: ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION,
        outputValue: JSON.stringify(value),
        counter,
        seen,
        device,
      });
    expect(openConflicts([status('IN_WORK', 1, 0, B), status('IN_QA', 2, 0, A)])).toEqual([]);
  });
});

describe('seen counters', () => {
  it('take the shown change’s counter, what an unsent shown change had seen, 0 for an empty field', () => {
    expect(seenOf(undefined)).toBe(0);
    expect(seenOf(change('1', { counter: 7 }))).toBe(7);
    expect(seenOf(change('1', { counter: UNSENT_COUNTER, sent: SENT_STATES.UNSENT, seen: 4 }))).toBe(4);
  });
  /** Changes of another field at the given counters, so the device holds every counter up to the highest. */
  const filler = (...counters: number[]) => counters.map((counter) => change('x', { counter, key: `${KEY}X` }));

  it('for a decision, take every counter of the field the device holds', () => {
    const rows = [
      change('1', { counter: 3 }),
      change('2', { counter: 9, reverted: true }),
      change('3', { counter: 11, key: `${KEY}X` }),
      ...filler(1, 2, 4, 5, 6, 7, 8, 10),
    ];
    expect(seenAll(rows, KEY)).toBe(9);
  });
  it('never go past the counter up to which the device holds every change', () => {
    // The device pushed its own change (15) but never pulled 12 to 14, where another user changed the field (13).
    const mine = change('mine', { counter: 15, device: A });
    const rows = [...filler(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), mine];
    expect(seenForEdit(rows, KEY, true)).toBe(11);
    expect(seenAll(rows, KEY)).toBe(11);
    // So a later change of the same device does not end the conflict it never saw.
    const theirs = change('theirs', { counter: 13, seen: 11, device: B });
    const late = { ...mine, seen: 11 };
    const again = change('again', { counter: 16, seen: 11, device: A });
    expect(openConflicts([...filler(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), theirs, late, again])).toEqual([
      { key: KEY, replaced: theirs, by: late },
    ]);
  });
  it('the standing change of each field is the newest in effect', () => {
    const first = change('1', { counter: 1 });
    const second = change('2', { counter: 2 });
    const undone = change('3', { counter: 3, reverted: true });
    expect(standingChanges([undone, second, first]).get(KEY)).toBe(second);
  });
});

describe('field history', () => {
  it('lists every change of the fields newest first, reverted and unsent included, other fields left out', () => {
    const first = change('1', { counter: 3 });
    const undone = change('2', { counter: 5, reverted: true });
    const waiting = change('3', { sent: SENT_STATES.UNSENT, counter: UNSENT_COUNTER, counterLocal: 4 });
    const other = change('4', { counter: 6, key: `${KEY}X` });
    expect(fieldHistory([waiting, first, other, undone], [KEY]).map((a) => a.id)).toEqual([
      waiting.id,
      undone.id,
      first.id,
    ]);
  });
});

describe('seen of an edit', () => {
  it('is the standing change’s counter, or what stood before a value that arrived while the user typed', () => {
    const others = [1, 2, 4, 5, 6, 7].map((counter) => change('x', { counter, key: `${KEY}X` }));
    const first = change('1', { counter: 3 });
    const second = change('2', { counter: 8 });
    expect(seenForEdit([...others, first, second], KEY, true)).toBe(8);
    expect(seenForEdit([...others, first, second], KEY, false)).toBe(3);
    expect(seenForEdit([], KEY, true)).toBe(0);
    const cleared = change(null, { counter: 9 });
    expect(seenForEdit([...others, first, second, cleared], KEY, true)).toBe(9);
  });
});
