// @vitest-environment node
import 'fake-indexeddb/auto';
import './test-node-globals.ts';
import { Dexie, type ObservabilitySet } from 'dexie';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../app/session.ts';
import { staffSession } from './test-support/staff-session.ts';
import { dropEarlyOrderRows, readOrderRowsEarly, takeEarlyOrderRows } from './early-order-rows.ts';
import { orderRows, recordChange } from './order-results.ts';
import { VersDb } from './versdb.ts';

const W_IN = '$.Body.Wagen.technicalWaggonIncoming';

const db = new VersDb(`versdb-early-rows-${crypto.randomUUID()}`);
afterAll(() => db.delete());
beforeAll(() => sessionStore.set(staffSession()));

/** An order with two rows on the device. */
async function orderWithRows(): Promise<string> {
  const orderId = crypto.randomUUID();
  await recordChange(db, { orderId, key: `${W_IN}.Eigengewicht`, value: '22500' });
  await recordChange(db, { orderId, key: `${W_IN}.AnzahlAchsen`, value: '4' });
  return orderId;
}

const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();

describe('reading an order’s rows on the way to the editor', () => {
  it('hands the editor the rows read early, without reading them again', async () => {
    const orderId = await orderWithRows();
    const reads = vi.spyOn(db.orderResults, 'where');
    try {
      readOrderRowsEarly(orderId, db);
      expect(reads).toHaveBeenCalledTimes(1);
      const rows = await takeEarlyOrderRows(orderId, db);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(ids(rows)).toEqual(ids(await orderRows(db, orderId)));
      expect(rows).toHaveLength(2);
      // Taken once: the next take reads.
      await takeEarlyOrderRows(orderId, db);
      expect(reads).toHaveBeenCalledTimes(3);
    } finally {
      reads.mockRestore();
    }
  });

  it('reads again when a row was written after the early read began: the new row is not missed', async () => {
    const orderId = await orderWithRows();
    const reported = new Promise<void>((resolve) => {
      const onMutated = (parts: ObservabilitySet) => {
        if (!parts[`idb://${db.name}/orderResults/`]) return;
        Dexie.on.storagemutated.unsubscribe(onMutated);
        resolve();
      };
      Dexie.on('storagemutated', onMutated);
    });
    const reads = vi.spyOn(db.orderResults, 'where');
    try {
      readOrderRowsEarly(orderId, db);
      const written = await recordChange(db, { orderId, key: `${W_IN}.Eigengewicht`, value: '22400' });
      // Dexie reports the write after its commit (to this tab, and to the others).
      await reported;
      reads.mockClear();
      const rows = await takeEarlyOrderRows(orderId, db);
      // The early read is not handed out: the rows are read again.
      expect(reads).toHaveBeenCalledTimes(1);
      expect(ids(rows)).toContain(written.id);
      expect(rows).toHaveLength(3);
    } finally {
      reads.mockRestore();
    }
  });

  it('a read begun for another order, or forgotten on leaving, is not handed out', async () => {
    const first = await orderWithRows();
    const second = await orderWithRows();
    readOrderRowsEarly(first, db);
    expect(ids(await takeEarlyOrderRows(second, db))).toEqual(ids(await orderRows(db, second)));
    readOrderRowsEarly(first, db);
    dropEarlyOrderRows();
    const reads = vi.spyOn(db.orderResults, 'where');
    try {
      expect(await takeEarlyOrderRows(first, db)).toHaveLength(2);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('an early read that failed is replaced by a read at taking', async () => {
    const orderId = await orderWithRows();
    db.close();
    // Closed, the database refuses reads: the early read fails.
    await expect(orderRows(db, orderId)).rejects.toThrow();
    readOrderRowsEarly(orderId, db);
    await db.open();
    expect(await takeEarlyOrderRows(orderId, db)).toHaveLength(2);
  });
});
