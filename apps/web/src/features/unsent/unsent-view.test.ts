import 'fake-indexeddb/auto';
import { SENT_STATES } from '@vers/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { IN, localOrder as order, OUT, unsentRow as row } from '../../offline/test-support/unsent-fixtures.ts';
import { VersDb } from '../../offline/versdb.ts';
import {
  countWaiting,
  fieldOf,
  isNotApplied,
  notAppliedItems,
  orderLabel,
  readUnsentView,
  reasonOf,
  valueOfRow,
} from './unsent-view.ts';

const refusal = (code: string, message = 'server words') => ({
  status: 400,
  code,
  message,
  at: '2026-11-21T11:00:00Z',
});

describe('countWaiting', () => {
  it('counts waiting rows and offline orders, and those another user of the device made', () => {
    const rows = [
      row({ owner: 5 }),
      row(), // no owner: anybody's
      row({ owner: 9 }),
      row({ owner: 9, sent: SENT_STATES.REFUSED }), // not waiting
      row({ owner: 9, sent: SENT_STATES.ORDER_UNKNOWN }), // not waiting
    ];
    const orders = [order({}, { sent: 0, owner: 9 }), order({}, { sent: 0, owner: 5 })];
    expect(countWaiting(rows, orders, 5)).toEqual({ total: 5, others: 2 });
    expect(countWaiting(rows, orders, 9)).toEqual({ total: 5, others: 2 });
    expect(countWaiting(rows, orders, undefined)).toEqual({ total: 5, others: 4 });
    expect(countWaiting([], [], 5)).toEqual({ total: 0, others: 0 });
  });
});

describe('the list of what the server did not apply', () => {
  it('holds order-unknown and refused rows and waiting rows with a reason, newest first, and refused orders', () => {
    const unknown = row({ sent: SENT_STATES.ORDER_UNKNOWN, created: '2026-11-21T09:00:00.000Z' });
    const refused = row({ sent: SENT_STATES.REFUSED, refusal: refusal('INCOMPATIBLE_TYPE') });
    const readOnly = row({ refusal: refusal('ORDER_READ_ONLY'), created: '2026-11-21T12:00:00.000Z' });
    const plain = row();
    const refusedOrder = order({}, { sent: 0, refusal: refusal('VALIDATION'), created: '2026-11-21T11:00:00.000Z' });
    expect([unknown, refused, readOnly, plain].map(isNotApplied)).toEqual([true, true, true, false]);
    const items = notAppliedItems({
      rows: [unknown, refused, readOnly, plain],
      unsentOrders: [refusedOrder, order({}, { sent: 0 })],
      orders: new Map(),
    });
    expect(items.map((item) => item.id)).toEqual([readOnly.id, refusedOrder.id, refused.id, unknown.id]);
    expect(items.map((item) => item.kind)).toEqual(['change', 'order', 'change', 'change']);
  });

  it('gives the reason by code where known, else the server message; an unknown order is always that', () => {
    expect(reasonOf({ sent: 2 })).toEqual({ key: 'unsent.reason.orderUnknown' });
    expect(reasonOf({ sent: 2, refusal: refusal('NOT_FOUND') })).toEqual({ key: 'unsent.reason.orderUnknown' });
    expect(reasonOf({ sent: 3, refusal: refusal('INCOMPATIBLE_TYPE') })).toEqual({
      key: 'unsent.reason.INCOMPATIBLE_TYPE',
    });
    expect(reasonOf({ sent: 0, refusal: refusal('ORDER_READ_ONLY') })).toEqual({
      key: 'unsent.reason.ORDER_READ_ONLY',
    });
    expect(reasonOf({ sent: 3, refusal: refusal('PAYLOAD_TOO_LARGE', 'too big') })).toEqual({ text: 'too big' });
    expect(reasonOf({ sent: 3, refusal: refusal('ODD', ' ') })).toEqual({ key: 'unsent.reason.refused' });
    expect(reasonOf({ sent: 3 })).toEqual({ key: 'unsent.reason.refused' });
  });

  it('names a field by the catalogue, a status change as such, and an unknown key by its path', () => {
    expect(fieldOf(`${IN}.Eigengewicht`, 'XML_MODIFICATION', 'WAGON')).toMatchObject({
      kind: 'field',
      labelKey: 'catalogue.field.Eigengewicht',
      side: 'in',
    });
    // without the order, the key's root tells the type
    expect(fieldOf(`${OUT}.Eigengewicht`, 'XML_MODIFICATION')).toMatchObject({ kind: 'field', side: 'out' });
    // The field's kind, by which the page writes its values as the field shows them (a date "24.12.25").
    expect(fieldOf(`${OUT}.OverhaulDate`, 'XML_MODIFICATION', 'WAGON')).toMatchObject({ fieldKind: 'date' });
    expect(fieldOf(`${OUT}.AllowableAxleLoad`, 'XML_MODIFICATION', 'WAGON')).toMatchObject({ fieldKind: 'double' });
    expect(fieldOf('$.status', 'ORDER_STATUS_MODIFICATION', 'WAGON')).toEqual({ kind: 'status' });
    expect(fieldOf(`${IN}.NoSuchField`, 'XML_MODIFICATION', 'WAGON')).toEqual({
      kind: 'path',
      key: `${IN}.NoSuchField`,
    });
  });

  it('shows the value inside the stored attribute, a status, or a deletion', () => {
    expect(valueOfRow(row())).toEqual({ kind: 'value', value: '22500' });
    expect(valueOfRow(row({ outputValue: '{"value":true,"CaptureDate":"x"}' }))).toEqual({
      kind: 'value',
      value: true,
    });
    expect(valueOfRow(row({ outputValue: 'not json' }))).toEqual({ kind: 'value', value: 'not json' });
    expect(valueOfRow(row({ activityType: 'XML_DELETE', outputValue: 'null' }))).toEqual({ kind: 'deleted' });
    expect(valueOfRow(row({ activityType: 'ORDER_STATUS_MODIFICATION', outputValue: '"IN_QA"' }))).toEqual({
      kind: 'status',
      status: 'IN_QA',
    });
  });

  it('names an order by its number and vehicle number', () => {
    expect(orderLabel(order())).toBe('A-17 · 21 81 2471 217-3');
    expect(orderLabel(order({ number: '' }))).toBe('21 81 2471 217-3');
    expect(
      orderLabel(order({ type: 'WHEELSET', wagonNumber: null, wheelsetNumber: '412345678901', number: 'R-2' })),
    ).toBe('R-2 · 41 23 4567 890-1');
    expect(orderLabel(undefined)).toBeNull();
  });
});

describe('readUnsentView', () => {
  const databases: VersDb[] = [];
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((db) => db.delete()));
  });

  it('reads the rows not applied, the offline orders and the orders of the listed rows only', async () => {
    const db = new VersDb(`versdb-unsent-view-${crypto.randomUUID()}`);
    databases.push(db);
    const known = order();
    const quiet = order();
    const offline = order({}, { sent: 0 });
    const rows = [
      row({ orderId: known.id, sent: SENT_STATES.REFUSED }),
      row({ orderId: quiet.id }),
      row({ orderId: quiet.id, sent: SENT_STATES.SENT, counter: 4 }),
    ];
    await db.orders.bulkAdd([known, quiet, offline]);
    await db.orderResults.bulkAdd(rows);
    const view = await readUnsentView(db);
    expect(view.rows.map((r) => r.id).sort()).toEqual([rows[0]!.id, rows[1]!.id].sort());
    expect(view.unsentOrders).toEqual([{ ...offline, searchKeys: expect.any(Array) }]);
    expect([...view.orders.keys()].sort()).toEqual([known.id, offline.id].sort());
  });
});
