// @vitest-environment node
import 'fake-indexeddb/auto';
import './test-node-globals.ts';
import { foldActivities, foldOrder, SENT_STATES, UNSENT_COUNTER } from '@vers/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionStore } from '../app/session.ts';
import { staffSession } from './test-support/staff-session.ts';
import { orderRows, recordChange } from './order-results.ts';
import { editProblems, recordEdit } from './record-edit.ts';
import { VersDb } from './versdb.ts';

const W_OUT = '$.Body.Wagen.technicalWaggonOutgoing';
const W_IN = '$.Body.Wagen.technicalWaggonIncoming';
const R_OUT = '$.Body.Radsatz.technicalWheelsetOutgoing';

const db = new VersDb(`versdb-record-edit-${crypto.randomUUID()}`);
afterAll(() => db.delete());
sessionStore.set(staffSession());

describe('the field catalogue at the keyboard', () => {
  it('refuses what the server refuses, with the reason as data: too long texts, unknown fields, the wrong side', () => {
    expect(editProblems('WAGON', [{ key: `${W_OUT}.Baujahr`, value: '1850' }])).toEqual([
      { key: `${W_OUT}.Baujahr`, issue: { code: 'UNKNOWN_FIELD' } },
    ]);
    const text = `${W_OUT}.Halterkurzkennzeichen`;
    expect(editProblems('WAGON', [{ key: text, value: 'x'.repeat(250) }])).toEqual([
      { key: text, issue: { code: 'TEXT_TOO_LONG', max: 200 } },
    ]);
    expect(editProblems('WAGON', [{ key: text, value: 'x'.repeat(200) }])).toEqual([]);
    // A field kept on the incoming side only has no outgoing value.
    expect(editProblems('WAGON', [{ key: `${W_OUT}.LetztesLadegut`, value: 'Kohle' }])).toEqual([
      { key: `${W_OUT}.LetztesLadegut`, issue: { code: 'NOT_ON_THIS_SIDE', side: 'out' } },
    ]);
    expect(editProblems('WAGON', [{ key: `${W_IN}.LetztesLadegut`, value: 'Kohle' }])).toEqual([]);
    // Clearing a field always fits.
    expect(editProblems('WAGON', [{ key: text, value: null }])).toEqual([]);
  });
});

describe('recordEdit', () => {
  it('stores the writes unsent with what was seen, then the recalculation the domain calls for', async () => {
    const orderId = crypto.randomUUID();
    const ar = `${R_OUT}.ArDimension`;
    const left = `${R_OUT}.Wheels.Wheel[0]`;
    const right = `${R_OUT}.Wheels.Wheel[1]`;
    const writes = [
      { key: `${left}.Side`, value: 'left' },
      { key: `${left}.Sd`, value: '32.5' },
      { key: `${right}.Side`, value: 'right' },
      { key: `${right}.Sd`, value: '31.8' },
    ];
    expect(editProblems('WHEELSET', writes)).toEqual([]);
    const first = await recordEdit(db, { orderId, type: 'WHEELSET', writes, fold: foldOrder([]), values: {} });
    expect(first.stored).toHaveLength(4);
    expect(first.stored.every((row) => row.sent === SENT_STATES.UNSENT && row.counter === UNSENT_COUNTER)).toBe(true);
    expect(first.stored.every((row) => row.seen === 0 && row.owner === 7 && row.author === 'Stefan Schlosser')).toBe(
      true,
    );

    const rows = await orderRows(db, orderId);
    const values = foldActivities(rows).values;
    const withAr = await recordEdit(db, {
      orderId,
      type: 'WHEELSET',
      writes: [{ key: ar, value: '1360' }],
      fold: foldOrder(rows),
      values,
    });
    expect(withAr.stored.map((row) => row.key)).toEqual([ar, `${R_OUT}.SrMass`]);
    const state = foldActivities(await orderRows(db, orderId)).values;
    expect(state[`${R_OUT}.SrMass`]).toMatchObject({ value: '1424.300' });
  });

  it('stores no calculated value while its inputs are partly filled (the editor warns when the group is left)', async () => {
    const orderId = crypto.randomUUID();
    const result = await recordEdit(db, {
      orderId,
      type: 'WHEELSET',
      writes: [{ key: `${R_OUT}.ArDimension`, value: '1360' }],
      fold: foldOrder([]),
      values: {},
    });
    expect(result.stored.map((row) => row.key)).toEqual([`${R_OUT}.ArDimension`]);
  });
});

describe('local counters across two tabs', () => {
  it('two tabs of one browser (two connections to one database) never give two waiting changes one number', async () => {
    const orderId = crypto.randomUUID();
    // A second tab: its own connection and its own guess of the next number, the same database.
    const other = new VersDb(db.name);
    const key = `${W_OUT}.Halterkurzkennzeichen`;
    // Each tab first learns the order's numbers from an edit of its own, then both edit at once, several times.
    await recordChange(db, { orderId, key, value: 'A-0' });
    await recordChange(other, { orderId, key, value: 'B-0' });
    for (let round = 1; round <= 5; round++) {
      await Promise.all([
        recordChange(db, { orderId, key, value: `A-${round}` }),
        recordChange(other, { orderId, key, value: `B-${round}` }),
        recordChange(db, { orderId, key, value: `A-${round}b` }),
      ]);
    }
    const rows = await orderRows(db, orderId);
    expect(rows).toHaveLength(17);
    expect(new Set(rows.map((row) => row.counterLocal)).size).toBe(17);
    // Each tab's own changes keep the order they were made in.
    const byNumber = [...rows].sort((a, b) => a.counterLocal - b.counterLocal).map((row) => row.outputValue);
    const order = (tab: string) => byNumber.filter((text) => text.includes(`"${tab}-`));
    expect(order('B')).toEqual([0, 1, 2, 3, 4, 5].map((round) => expect.stringContaining(`"B-${round}"`)));
    expect(order('A').filter((text) => !text.includes('b"'))).toEqual(
      [0, 1, 2, 3, 4, 5].map((round) => expect.stringContaining(`"A-${round}"`)),
    );
    other.close();
  });
});
