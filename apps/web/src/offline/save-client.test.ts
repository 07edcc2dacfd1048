// @vitest-environment node
import 'fake-indexeddb/auto';
import './test-node-globals.ts';
import { SENT_STATES } from '@vers/domain';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { changeRows, orderRows } from './order-results.ts';
import { storeChangesOffMainThread, storeUnstored } from './save-client.ts';
import { VersDb } from './versdb.ts';

const KEY = '$.Body.Wagen.technicalWaggonOutgoing.Halterkurzkennzeichen';
const db = new VersDb(`versdb-save-client-${crypto.randomUUID()}`);
const other = new VersDb(`versdb-save-client-other-${crypto.randomUUID()}`);
afterAll(async () => {
  await db.delete();
  await other.delete();
});

const journal = () =>
  Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index) ?? '').filter((key) =>
    key.startsWith('vers-unstored:'),
  );
/** What a page that went before its commit leaves behind: the edit's rows under its journal key. */
const leftBehind = (database: VersDb, orderId: string, value: string) => {
  const rows = changeRows(database, [{ orderId, key: KEY, value }]);
  localStorage.setItem(`vers-unstored:${database.name}:${rows[0]!.id}`, JSON.stringify(rows));
  return rows;
};
const values = async (orderId: string) => (await orderRows(db, orderId)).map((row) => row.outputValue);

beforeEach(() => localStorage.clear());

describe('the journal of edits not yet committed', () => {
  it('is empty again once an edit has committed', async () => {
    const orderId = crypto.randomUUID();
    const { stored } = await storeChangesOffMainThread(db, changeRows(db, [{ orderId, key: KEY, value: 'D-1' }]));
    expect(stored).toHaveLength(1);
    expect(journal()).toEqual([]);
  });

  it('stores at the next start what a page left in it, once, unsent, and leaves other databases alone', async () => {
    const orderId = crypto.randomUUID();
    const [row] = leftBehind(db, orderId, 'D-LEFT');
    const [foreign] = leftBehind(other, orderId, 'D-OTHER');
    expect(await storeUnstored(db)).toBe(1);
    const rows = await orderRows(db, orderId);
    expect(rows.map((stored) => [stored.id, stored.sent])).toEqual([[row!.id, SENT_STATES.UNSENT]]);
    expect(rows[0]!.outputValue).toContain('D-LEFT');
    expect(journal()).toEqual([`vers-unstored:${other.name}:${foreign!.id}`]);
    // A second start finds nothing more to do.
    expect(await storeUnstored(db)).toBe(0);
    expect(await orderRows(db, orderId)).toHaveLength(1);
  });

  it('only takes out an edit whose commit came after all (or another tab stored it), and drops what it cannot read', async () => {
    const orderId = crypto.randomUUID();
    const rows = leftBehind(db, orderId, 'D-COMMITTED');
    await storeChangesOffMainThread(db, rows);
    localStorage.setItem(`vers-unstored:${db.name}:${rows[0]!.id}`, JSON.stringify(rows));
    localStorage.setItem(`vers-unstored:${db.name}:broken`, '{not json');
    leftBehind(db, orderId, 'D-AFTER');
    expect(await storeUnstored(db)).toBe(1);
    expect(await values(orderId)).toHaveLength(2);
    expect((await values(orderId)).filter((value) => value.includes('D-COMMITTED'))).toHaveLength(1);
    expect(journal()).toEqual([]);
  });
});
