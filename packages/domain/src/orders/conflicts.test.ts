import { describe, expect, it } from 'vitest';
import { type Activity, ACTIVITY_TYPES, SENT_STATES, UNSENT_COUNTER } from './activity.ts';
import { changeValue, fieldHistory, lostChanges } from './conflicts.ts';

const KEY = '$.Body.Wagen.technicalWaggonOutgoing.Eigengewicht';
const ME = 7;

function change(id: string, value: string | null, fields: Partial<Activity> = {}): Activity {
  return {
    id,
    orderId: 'o',
    key: KEY,
    outputValue: value === null ? 'null' : JSON.stringify({ value, CaptureDate: '2026-11-22T08:00:00.000Z' }),
    activityType: value === null ? ACTIVITY_TYPES.XML_DELETE : ACTIVITY_TYPES.XML_MODIFICATION,
    created: '2026-11-22T08:00:00.000Z',
    counter: UNSENT_COUNTER,
    counterLocal: 0,
    reverted: false,
    sent: SENT_STATES.SENT,
    ...fields,
  };
}

const isMine = (activity: Activity) => activity.owner === ME;

describe('lost changes', () => {
  // Both edited offline at 08:00 and 08:05; mine reached the server at 09:00, theirs at 09:10 and won.
  const mine = change('m', '22500', { owner: ME, counter: 11, lastModified: '2026-11-22T09:00:00.000Z' });
  const theirs = change('t', '22400', {
    counter: 12,
    created: '2026-11-22T08:05:00.000Z',
    lastModified: '2026-11-22T09:10:00.000Z',
    lastModifier: 'Keller',
  });

  it('names my value and the one that replaced it when both were made without seeing each other', () => {
    const lost = lostChanges([theirs, mine], isMine);
    expect([...lost.keys()]).toEqual([KEY]);
    expect(lost.get(KEY)).toEqual({ mine, winner: theirs });
  });

  it('is no conflict when the other user changed the value after mine had reached the server', () => {
    const later = { ...theirs, created: '2026-11-22T09:05:00.000Z' };
    expect(lostChanges([mine, later], isMine).size).toBe(0);
  });

  it('is no conflict when my value stands, when both chose the same value, or when I changed it again', () => {
    const mineLast = { ...mine, counter: 13 };
    expect(lostChanges([theirs, mineLast], isMine).size).toBe(0);
    const { outputValue: _theirValue, ...timing } = theirs;
    const same = change('s', '22500', { ...timing, id: 's' });
    expect(lostChanges([mine, same], isMine).size).toBe(0);
    const again = change('a', '22300', { owner: ME, counter: UNSENT_COUNTER, sent: SENT_STATES.UNSENT });
    expect(lostChanges([mine, theirs, again], isMine).size).toBe(0);
  });

  it('ignores reverted and refused changes, and counts a clearing of the field as a replacement', () => {
    expect(lostChanges([mine, { ...theirs, reverted: true }], isMine).size).toBe(0);
    expect(lostChanges([{ ...mine, sent: SENT_STATES.REFUSED }, theirs], isMine).size).toBe(0);
    const cleared = change('c', null, { counter: 12, created: '2026-11-22T08:05:00.000Z' });
    expect(lostChanges([mine, cleared], isMine).get(KEY)?.winner).toBe(cleared);
    expect(changeValue(cleared)).toBeNull();
    expect(changeValue(mine)).toBe('22500');
  });
});

describe('field history', () => {
  it('lists every change of the fields newest first, reverted and unsent included, other fields left out', () => {
    const first = change('1', '1', { counter: 3 });
    const undone = change('2', '2', { counter: 5, reverted: true });
    const waiting = change('3', '3', { sent: SENT_STATES.UNSENT, counterLocal: 4 });
    const other = change('4', '4', { counter: 6, key: `${KEY}X` });
    expect(fieldHistory([waiting, first, other, undone], [KEY]).map((a) => a.id)).toEqual(['3', '2', '1']);
  });
});
