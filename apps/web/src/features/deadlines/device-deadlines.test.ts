// @vitest-environment node
import 'fake-indexeddb/auto';
import { type Activity, type Order, ORDER_ROOTS, SENT_STATES, UNSENT_COUNTER, attributeValue } from '@vers/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { VersDb } from '../../offline/versdb.ts';
import { deviceDeadlines } from './device-deadlines.ts';

/*
 * The deadline list offline (issue 23): from the orders this device keeps and the changes it holds of them, its own
 * unsent ones included, by the domain rule the server uses.
 */

const OUT = ORDER_ROOTS.WAGON.out;
const TODAY = '2030-01-10';
const db = new VersDb(`versdb-deadlines-${crypto.randomUUID()}`);
afterAll(async () => {
  db.close();
  await db.delete();
});

const order = (id: string, number: string): Order => ({
  id,
  number,
  externalOrderNumber: '',
  maintenanceNumber: '318066501236',
  contractor: '',
  type: 'WAGON',
  status: 'IN_WORK',
  created: '2030-01-01T08:00:00.000Z',
  importedDate: null,
  assetId: null,
  wagonNumber: '318066501236',
  wheelsetNumber: null,
  lastCounter: 3,
});

let counter = 0;
const row = (orderId: string, key: string, value: string | null, options: Partial<Activity> = {}): Activity => {
  counter += 1;
  return {
    id: crypto.randomUUID(),
    orderId,
    key,
    outputValue: value === null ? '' : JSON.stringify(attributeValue(value, new Date('2030-01-01T08:00:00Z'))),
    activityType: 'XML_MODIFICATION',
    created: new Date(Date.UTC(2030, 0, 1, 8, 0, counter)).toISOString(),
    counter,
    counterLocal: 0,
    reverted: false,
    sent: SENT_STATES.SENT,
    ...options,
  };
};

describe('the deadlines of the orders on this device', () => {
  it('folds the kept orders’ changes, unsent ones included, removed entries and other orders’ rows left out', async () => {
    const a = crypto.randomUUID();
    const b = crypto.randomUUID();
    const notKept = crypto.randomUUID();
    const tank = `${OUT}.Tank.TestCollection.TankTest[0]`;
    await db.orders.bulkPut([
      { id: a, sent: 1, order: order(a, '2030-000001') },
      { id: b, sent: 1, order: order(b, '2030-000002') },
    ]);
    await db.orderResults.bulkPut([
      row(a, `${OUT}.Revision.DatumLetzteFrist`, '2030-03-01'),
      // Typed on this device and not sent yet: it is what the tablet shows, so it counts.
      row(a, `${OUT}.Revision.DatumLetzteFrist`, '2030-01-30', {
        sent: SENT_STATES.UNSENT,
        counter: UNSENT_COUNTER,
        counterLocal: 1,
      }),
      row(a, `${OUT}.Labeling.Gattungszeichen`, 'Zacns'),
      row(b, `${tank}.Tankpruefungsart`, 'P'),
      row(b, `${tank}.NaechstePruefung`, '2030-01'),
      row(b, tank, null, { activityType: 'XML_DELETE' }),
      row(notKept, `${OUT}.Revision.DatumLetzteFrist`, '2030-01-12'),
    ]);
    const list = await deviceDeadlines(db, { within: 90, overdue: true }, TODAY);
    expect(list.map(({ orderId, due, daysLeft }) => ({ orderId, due, daysLeft }))).toEqual([
      { orderId: a, due: '2030-01-30', daysLeft: 20 },
    ]);
    expect(await deviceDeadlines(db, { within: null, overdue: true }, TODAY)).toEqual([]);
  });
});
