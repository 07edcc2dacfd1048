import { describe, expect, it } from 'vitest';
import { attributeValue } from '../catalogue/values.ts';
import { writeIssue } from '../catalogue/resolve.ts';
import { type Activity, SENT_STATES } from './activity.ts';
import { CREATION_KEYS, ORDER_ROOTS } from './paths.ts';
import { applyWrites, mountedWheelset, positionHistory, positionsAlsoMounting, wheelsetSwap } from './wheelset-swap.ts';

const OUT = ORDER_ROOTS.WAGON.out;
const IN = ORDER_ROOTS.WAGON.in;
const LIST = 'Understructure.WheelsetCollection.Wheelset';
const at = (value: string) => attributeValue(value, new Date('2026-11-22T08:00:00Z'));
const today = '2026-11-22';
const A = '408000012349';
const B = '408000012356';
const C = '408000012364';

/** A wagon as the server creates it: four outgoing wheelsets, the first two with numbers A and B. */
function wagon(): Record<string, unknown> {
  const values: Record<string, unknown> = { [CREATION_KEYS.wagonNumber('in')]: at('318000000014') };
  for (let i = 0; i < 4; i++) {
    values[CREATION_KEYS.outgoingWheelset(i, 'Position')] = at(String(i + 1));
    values[CREATION_KEYS.outgoingWheelset(i, 'Wheelsetnumber')] = at([A, B, '', ''][i]!);
  }
  return values;
}

describe('wheelsetSwap', () => {
  it('mounts a typed number at a position: number, direction NORMAL, the mount date of the day, no asset id', () => {
    const result = wheelsetSwap('WAGON', wagon(), { position: 3, wheelset: { number: '40 80 0001 236-4' } }, { today });
    expect(result).toEqual({
      ok: true,
      writes: [
        { key: `${OUT}.${LIST}[2].Wheelsetnumber`, value: C },
        { key: `${OUT}.${LIST}[2].Direction`, value: 'NORMAL' },
        { key: `${OUT}.${LIST}[2].MountDate`, value: today },
      ],
      answer: { position: 3, wheelset: { assetId: null, number: C }, direction: 'NORMAL' },
    });
    // Every write fits the catalogue, as the activity push will check it.
    if (result.ok) for (const w of result.writes) expect(writeIssue('WAGON', w.key, w.value)).toBeNull();
  });

  it('replaces a mounted wheelset, clearing the asset id of the one before, with a given direction and date', () => {
    const values = { ...wagon(), [`${OUT}.${LIST}[0].AssetId`]: at('import-1') };
    const result = wheelsetSwap(
      'WAGON',
      values,
      { position: 1, wheelset: { number: C }, direction: 'TURNED', mountDate: '2026-11-20' },
      { today },
    );
    expect(result.ok && result.writes).toEqual([
      { key: `${OUT}.${LIST}[0].Wheelsetnumber`, value: C },
      { key: `${OUT}.${LIST}[0].AssetId`, value: null },
      { key: `${OUT}.${LIST}[0].Direction`, value: 'TURNED' },
      { key: `${OUT}.${LIST}[0].MountDate`, value: '2026-11-20' },
    ]);
  });

  it('adds the entry the way the editor adds one when the position has none, raising the number of axles', () => {
    const result = wheelsetSwap('WAGON', wagon(), { position: 6, wheelset: { number: C, assetId: 'a-1' } }, { today });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.writes).toEqual([
      { key: `${IN}.${LIST}[0].Position`, value: '6' },
      { key: `${OUT}.${LIST}[4].Position`, value: '6' },
      { key: `${OUT}.AnzahlAchsen`, value: '5' },
      { key: `${OUT}.${LIST}[4].Wheelsetnumber`, value: C },
      { key: `${OUT}.${LIST}[4].AssetId`, value: 'a-1' },
      { key: `${OUT}.${LIST}[4].Direction`, value: 'NORMAL' },
      { key: `${OUT}.${LIST}[4].MountDate`, value: today },
    ]);
    expect(result.answer).toEqual({ position: 6, wheelset: { assetId: 'a-1', number: C }, direction: 'NORMAL' });
  });

  it('creates the outgoing side of an entry that only the incoming side has', () => {
    const values = { ...wagon(), [`${IN}.${LIST}[0].Position`]: at('7') };
    const result = wheelsetSwap('WAGON', values, { position: 7, wheelset: { number: C } }, { today });
    expect(result.ok && result.writes[0]).toEqual({ key: `${OUT}.${LIST}[4].Position`, value: '7' });
    expect(result.ok && mountedWheelset(applyWrites(values, result.writes), 7).wheelset?.number).toBe(C);
  });

  it("takes a wheelset template's values into the entry's outgoing side, the swap's own values winning", () => {
    const imported = [
      { key: `${ORDER_ROOTS.WHEELSET.in}.Wheelsetnumber`, value: C },
      { key: `${ORDER_ROOTS.WHEELSET.in}.Type`, value: 'BA 004' },
      { key: `${ORDER_ROOTS.WHEELSET.in}.MountDate`, value: '2020-01-01' },
      { key: `${ORDER_ROOTS.WHEELSET.in}.NoSuchField`, value: 'x' },
    ];
    const result = wheelsetSwap(
      'WAGON',
      wagon(),
      { position: 3, wheelset: { number: C, assetId: 'a' } },
      {
        today,
        imported,
      },
    );
    expect(result.ok && result.writes.map((w) => [w.key.slice(OUT.length + LIST.length + 5), w.value])).toEqual([
      ['Type', 'BA 004'],
      ['MountDate', '2020-01-01'],
      ['Wheelsetnumber', C],
      ['AssetId', 'a'],
      ['Direction', 'NORMAL'],
      ['MountDate', today],
    ]);
  });

  it('dismounts: number, asset id and direction cleared, the position stays; an empty position writes nothing', () => {
    const values = { ...wagon(), [`${OUT}.${LIST}[1].Direction`]: at('TURNED') };
    const result = wheelsetSwap('WAGON', values, { position: 2, wheelset: null }, { today });
    expect(result).toEqual({
      ok: true,
      writes: [
        { key: `${OUT}.${LIST}[1].Wheelsetnumber`, value: null },
        { key: `${OUT}.${LIST}[1].Direction`, value: null },
      ],
      answer: { position: 2, wheelset: null, direction: null },
    });
    expect(wheelsetSwap('WAGON', values, { position: 4, wheelset: null }, { today })).toMatchObject({
      ok: true,
      writes: [],
    });
  });

  it('turns the wheelset mounted at a position, and refuses to turn an empty one', () => {
    const result = wheelsetSwap('WAGON', wagon(), { position: 2, direction: 'TURNED' }, { today });
    expect(result).toEqual({
      ok: true,
      writes: [{ key: `${OUT}.${LIST}[1].Direction`, value: 'TURNED' }],
      answer: { position: 2, wheelset: { assetId: null, number: B }, direction: 'TURNED' },
    });
    expect(wheelsetSwap('WAGON', wagon(), { position: 3, direction: 'TURNED' }, { today })).toEqual({
      ok: false,
      problem: { code: 'WHEELSET_NOT_MOUNTED' },
    });
  });

  it('refuses a wrong check digit, a position outside 1..8, a wheelset order and a number mounted elsewhere', () => {
    const problem = (request: Parameters<typeof wheelsetSwap>[2], type: 'WAGON' | 'WHEELSET' = 'WAGON') => {
      const result = wheelsetSwap(type, wagon(), request, { today });
      return result.ok ? null : result.problem;
    };
    expect(problem({ position: 3, wheelset: { number: '408000012365' } })).toEqual({ code: 'CHECK_NUMBER' });
    expect(problem({ position: 3, wheelset: { number: '' } })).toEqual({ code: 'CHECK_NUMBER' });
    expect(problem({ position: 0, wheelset: { number: C } })).toEqual({ code: 'WHEELSET_POSITION' });
    expect(problem({ position: 9, wheelset: { number: C } })).toEqual({ code: 'WHEELSET_POSITION' });
    expect(problem({ position: 1.5, wheelset: { number: C } })).toEqual({ code: 'WHEELSET_POSITION' });
    expect(problem({ position: 3, wheelset: { number: C } }, 'WHEELSET')).toEqual({ code: 'WHEELSET_ORDER' });
    expect(problem({ position: 3, wheelset: { number: A } })).toEqual({
      code: 'WHEELSET_MOUNTED_ELSEWHERE',
      position: 1,
    });
    // The same wheelset again at its own position is a remount, not a duplicate.
    expect(problem({ position: 1, wheelset: { number: A } })).toBeNull();
    expect(problem({ position: 3, wheelset: { number: C }, mountDate: '2026-02-30' })?.code).toBe('VALIDATION');
    expect(problem({ position: 3 })?.code).toBe('VALIDATION');
  });
});

describe('positionsAlsoMounting', () => {
  it('finds a number that two devices mounted offline at two positions, each unaware of the other', () => {
    const held = wagon();
    expect(positionsAlsoMounting(held, A, 1)).toEqual([]);
    // Each device checks the mount against what it holds: both are allowed, and both are kept when they arrive.
    const first = wheelsetSwap('WAGON', held, { position: 3, wheelset: { number: C } }, { today });
    const second = wheelsetSwap('WAGON', held, { position: 4, wheelset: { number: C } }, { today });
    if (!first.ok || !second.ok) throw new Error('both mounts pass on their own device');
    const merged = applyWrites(held, [...first.writes, ...second.writes]);
    expect(positionsAlsoMounting(merged, C, 3)).toEqual([4]);
    expect(positionsAlsoMounting(merged, C, 4)).toEqual([3]);
    // On a device that holds both, a third mount of that number is refused, naming the first position found.
    expect(wheelsetSwap('WAGON', merged, { position: 1, wheelset: { number: C } }, { today })).toEqual({
      ok: false,
      problem: { code: 'WHEELSET_MOUNTED_ELSEWHERE', position: 3 },
    });
    // Dismounting it at one position ends the double.
    const dismount = wheelsetSwap('WAGON', merged, { position: 4, wheelset: null }, { today });
    if (!dismount.ok) throw new Error('the dismount passes');
    expect(positionsAlsoMounting(applyWrites(merged, dismount.writes), C, 3)).toEqual([]);
  });
});

describe('positionHistory', () => {
  let counter = 0;
  const row = (key: string, value: string | null, created: string, author: string, sent = true): Activity => {
    counter += 1;
    return {
      id: `id-${counter}`,
      orderId: 'o',
      key,
      outputValue: value === null ? 'null' : JSON.stringify({ value, CaptureDate: created }),
      activityType: value === null ? 'XML_DELETE' : 'XML_MODIFICATION',
      created,
      counter: sent ? counter : Number.MAX_SAFE_INTEGER,
      counterLocal: counter,
      reverted: false,
      sent: sent ? SENT_STATES.SENT : SENT_STATES.UNSENT,
      author,
      authorId: author.length,
    };
  };
  const key = (field: string, index = 0) => `${OUT}.${LIST}[${index}].${field}`;

  it('lists each wheelset a position held, from when to when and by whom; one action is one entry', () => {
    const t1 = '2026-11-01T08:00:00.000Z';
    const t2 = '2026-11-05T09:00:00.000Z';
    const t3 = '2026-11-06T10:00:00.000Z';
    const t4 = '2026-11-07T11:00:00.000Z';
    const rows = [
      row(key('Position'), '1', t1, 'Creator'),
      row(key('Wheelsetnumber'), A, t1, 'Creator'),
      row(key('Position', 1), '2', t1, 'Creator'),
      row(key('Wheelsetnumber', 1), B, t2, 'Other'), // another position: not in this history
      row(key('Wheelsetnumber'), C, t2, 'Mia Muster'),
      row(key('Direction'), 'NORMAL', t2, 'Mia Muster'),
      row(key('MountDate'), '2026-11-05', t2, 'Mia Muster'),
      row(key('Direction'), 'TURNED', t3, 'Tom Turner'),
      row(key('Wheelsetnumber'), null, t4, 'Dana Dismount', false),
      row(key('Direction'), null, t4, 'Dana Dismount', false),
    ];
    const history = positionHistory(rows, 1);
    expect(history.map((h) => [h.wheelset?.number ?? null, h.direction, h.from, h.until, h.activity.author])).toEqual([
      [A, null, t1, t2, 'Creator'],
      [C, 'NORMAL', t2, t3, 'Mia Muster'],
      [C, 'TURNED', t3, t4, 'Tom Turner'],
      [null, null, t4, null, 'Dana Dismount'],
    ]);
    expect(history.at(-1)?.activity.sent).toBe(SENT_STATES.UNSENT);
  });

  it('follows a position whose entry was removed and added again at another index', () => {
    const t1 = '2026-11-01T08:00:00.000Z';
    const t2 = '2026-11-02T08:00:00.000Z';
    const rows = [
      row(key('Position'), '1', t1, 'A'),
      row(key('Wheelsetnumber'), A, t1, 'A'),
      row(`${OUT}.${LIST}[0]`, null, t2, 'B'),
      row(key('Position', 3), '1', t2, 'B'),
      row(key('Wheelsetnumber', 3), B, t2, 'B'),
    ];
    expect(positionHistory(rows, 1).map((h) => h.wheelset?.number ?? null)).toEqual([A, B]);
  });
});
