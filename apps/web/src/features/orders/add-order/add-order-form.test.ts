// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process, which jsdom would get in the way of.
import 'fake-indexeddb/auto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkDigit, ORDER_STATUSES, signInResponseSchema } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../../../../server/src/test/server.ts';
import { VersDb } from '../../../offline/versdb.ts';
// Before anything that imports the session (api, local orders, the form): it needs local storage and a window.
import { removeWindowStub } from '../../../offline/test-node-globals.ts';
import { ApiFailure, call, setApiOrigin } from '../../../app/api.ts';
import { notifications } from '../../../app/notifications.ts';
import { sessionStore } from '../../../app/session.ts';
import type { ImportState } from '../xml-import.ts';
import {
  type AddOrderForm,
  checked,
  contractorOptionsOf,
  digitsOf,
  fieldOf,
  isFormInvalid,
  isImporting,
  marksFrom,
  messageKeyOf,
  newForm,
  numberMessageKey,
  orderRequest,
  submitOrder,
  withContractor,
  withExternal,
  withNumber,
  withNumberChecked,
  withRefusal,
  withRowAdded,
  withRowChecked,
  withRowNumber,
  withRowRemoved,
  withRowTemplate,
  withType,
  withVehicleTemplate,
} from './add-order-form.ts';

const WAGON_NUMBER = '21 81 2471 217-3';
const WAGON_DIGITS = '218124712173';
const CLOSED_PORT = 'http://127.0.0.1:1';
const IDS = { id: 'a5a0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d', dv: '0b7e9c3a-52d4-4f1e-9a6b-3c8d2e1f4a5b' };

function wheelsetNumber(i: number): string {
  const eleven = `4${String(1_000_000_000 + i).slice(-10)}`;
  return `${eleven}${checkDigit(eleven)}`;
}

/** A wagon form as a user fills it in: the number and four wheelset numbers typed, each field left. */
function filledWagon(): AddOrderForm {
  let form = withNumberChecked(withNumber(newForm(), WAGON_NUMBER));
  for (let i = 0; i < 4; i++) form = withRowChecked(withRowNumber(form, i, wheelsetNumber(i + 1)), i);
  return form;
}

const valid = (number: string, subNumbers: string[] = [], assetId = 'asset-1'): ImportState => ({
  kind: 'valid',
  filename: 'template.xml',
  assetId,
  number,
  subNumbers,
});
const busy: ImportState = { kind: 'busy', filename: 'template.xml' };
const refusedAs = (code: ApiFailure['code'], ...fields: string[]) => new ApiFailure(400, code, 'refused', fields);

describe('the fields', () => {
  it('names the field of a server path', () => {
    expect(fieldOf('body.maintenanceNumber')).toBe('number');
    expect(fieldOf('body.wagon.number')).toBe('number');
    expect(fieldOf('body.wheelset.number')).toBe('number');
    expect(fieldOf('body.wagon.wheelsetsOutgoing.1.number')).toBe('wheelset-1');
    expect(fieldOf('body.wagon.wheelsetsOutgoing.12')).toBe('wheelset-12');
    expect(fieldOf('body.contractor')).toBe('contractor');
    expect(fieldOf('body.externalOrderNumber')).toBe('external');
    // The list itself (too few or too many wheelsets) and unknown paths name no field.
    expect(fieldOf('body.wagon.wheelsetsOutgoing')).toBeNull();
    expect(fieldOf('body.type')).toBeNull();
  });

  it('checks a number on leaving: a good one in its printed form, a wrong one marked; digits for the server', () => {
    expect(checked(WAGON_DIGITS)).toEqual({ value: WAGON_NUMBER, wrong: false });
    expect(checked('21 81 2471 217-4')).toEqual({ value: '21 81 2471 217-4', wrong: true });
    expect(digitsOf(WAGON_NUMBER)).toBe(WAGON_DIGITS);
    expect(digitsOf('12345')).toBe('12345');
    // Each wrong number says what is wrong with it (issue 20): a 10- or 13-digit number is no check-digit error.
    expect(numberMessageKey({ value: '21 81 2471 217-4', wrong: true }, 'orders.add.refused')).toBe(
      'errors.CHECK_NUMBER',
    );
    expect(numberMessageKey({ value: '2181247121', wrong: true }, undefined)).toBe('errors.NUMBER_LENGTH');
    expect(numberMessageKey({ value: '2181247121736', wrong: true }, undefined)).toBe('errors.NUMBER_LENGTH');
    expect(numberMessageKey({ value: 'x', wrong: true }, 'orders.add.refused')).toBe('errors.NUMBER_CHARACTERS');
    expect(numberMessageKey({ value: 'x', wrong: false }, 'orders.add.refused')).toBe('orders.add.refused');
    expect(numberMessageKey({ value: 'x', wrong: false }, undefined)).toBeUndefined();
  });

  it('sorts the contractors by their text in the language', () => {
    const values = [
      { value: 'Z', text: 'Ölwerke', extra: 1 },
      { value: 'A', text: 'Zug AG' },
      { value: 'B', text: 'Alpha' },
    ];
    expect(contractorOptionsOf(values, 'de')).toEqual([
      { value: 'B', text: 'Alpha' },
      { value: 'Z', text: 'Ölwerke' },
      { value: 'A', text: 'Zug AG' },
    ]);
    expect(contractorOptionsOf(undefined, 'de')).toEqual([]);
  });
});

describe('the form', () => {
  it('starts as a wagon order with four empty wheelset rows of distinct keys, not yet to be saved', () => {
    const form = newForm();
    expect(form.type).toBe('WAGON');
    expect(form.wheelsets.map((row) => [row.value, row.wrong, row.template.kind])).toEqual(
      Array(4).fill(['', false, 'idle']),
    );
    expect(new Set(form.wheelsets.map((row) => row.key)).size).toBe(4);
    expect(isFormInvalid(form)).toBe(true);
    expect(isFormInvalid(filledWagon())).toBe(false);
  });

  it('is not to be saved while a wagon has one wheelset number twice, printed or as digits', () => {
    const twice = withRowChecked(withRowNumber(filledWagon(), 3, wheelsetNumber(1).replace(/\D/g, '')), 3);
    expect(isFormInvalid(twice)).toBe(true);
    expect(isFormInvalid(withRowNumber(twice, 3, ''))).toBe(false); // an empty row (not known yet) repeats nothing
    expect(isFormInvalid(withRowChecked(withRowNumber(twice, 3, wheelsetNumber(5)), 3))).toBe(false);
    // A wheelset order sends no rows: its rows do not hold it back.
    expect(isFormInvalid(withType(twice, 'WHEELSET'))).toBe(false);
  });

  it('drops the vehicle template with another order type, and keeps the rest', () => {
    const form = withVehicleTemplate(filledWagon(), valid(WAGON_DIGITS), true);
    expect(withType(form, 'WAGON')).toBe(form);
    const wheelset = withType(form, 'WHEELSET');
    expect(wheelset.vehicleTemplate).toEqual({ kind: 'idle' });
    expect(wheelset.number).toEqual(form.number);
    expect(wheelset.wheelsets).toBe(form.wheelsets);
  });

  it('is invalid while the number is empty or wrong, or a wagon has a wrong wheelset number', () => {
    const form = filledWagon();
    expect(isFormInvalid(withNumber(form, '  '))).toBe(true);
    expect(isFormInvalid(withNumber(form, '21 81 2471 217-4'))).toBe(true);
    // Typed but not yet left: a good number counts as it is.
    expect(isFormInvalid(withNumber(form, WAGON_DIGITS))).toBe(false);
    const wrongRow = withRowNumber(form, 2, '123');
    expect(isFormInvalid(wrongRow)).toBe(true);
    // The rows are not sent with a wheelset order.
    expect(isFormInvalid(withType(wrongRow, 'WHEELSET'))).toBe(false);
  });

  it('keeps a refused field invalid until it is changed; a row mark only counts for a wagon', () => {
    const form = withRefusal(
      filledWagon(),
      refusedAs('VALIDATION', 'body.contractor', 'body.wagon.wheelsetsOutgoing.1'),
    );
    expect([...form.refused]).toEqual([
      ['contractor', 'orders.add.refused'],
      ['wheelset-1', 'orders.add.refused'],
    ]);
    expect(isFormInvalid(form)).toBe(true);
    const contractor = withContractor(form, { value: 'DBC', text: 'DB Cargo' });
    expect([...contractor.refused.keys()]).toEqual(['wheelset-1']);
    expect(isFormInvalid(contractor)).toBe(true);
    expect(isFormInvalid(withType(contractor, 'WHEELSET'))).toBe(false);
    // Typing in another row keeps the mark; typing in the marked one clears it.
    expect([...withRowNumber(contractor, 0, wheelsetNumber(1)).refused.keys()]).toEqual(['wheelset-1']);
    expect(isFormInvalid(withRowNumber(contractor, 1, wheelsetNumber(2)))).toBe(false);
    // A change that clears nothing keeps the marks as they are.
    expect(withExternal(contractor, 'E-1').refused).toBe(contractor.refused);
    expect(withExternal(withRefusal(form, refusedAs('VALIDATION', 'body.externalOrderNumber')), 'E').refused.size).toBe(
      0,
    );
    expect(withNumber(withRefusal(form, refusedAs('CHECK_NUMBER', 'body.maintenanceNumber')), '').refused.size).toBe(0);
  });

  it('adds and removes rows with new keys; row marks go, as rows move', () => {
    const refused = withRefusal(
      filledWagon(),
      refusedAs('CHECK_NUMBER', 'body.wagon.wheelsetsOutgoing.2.number', 'body.maintenanceNumber'),
    );
    const added = withRowAdded(refused);
    expect(added.wheelsets).toHaveLength(5);
    expect(added.wheelsets[4]).toMatchObject({ value: '', wrong: false, template: { kind: 'idle' } });
    expect(new Set(added.wheelsets.map((row) => row.key)).size).toBe(5);
    expect([...added.refused.keys()]).toEqual(['number']);
    const removed = withRowRemoved(refused, 1);
    expect(removed.wheelsets.map((row) => row.key)).toEqual([0, 2, 3]);
    expect([...removed.refused.keys()]).toEqual(['number']);
    // A removed key is not given again.
    expect(withRowAdded(withRowRemoved(added, 4)).wheelsets.at(-1)!.key).toBe(5);
  });

  it('takes a vehicle template: its number and, for a wagon, one row per wheelset of the file within 2 to 8', () => {
    const form = withRefusal(
      filledWagon(),
      refusedAs('CHECK_NUMBER', 'body.wagon.number', 'body.wagon.wheelsetsOutgoing.0.number'),
    );
    expect(withVehicleTemplate(form, busy, true)).toEqual({ ...form, vehicleTemplate: busy });
    const two = withVehicleTemplate(form, valid(WAGON_DIGITS, [wheelsetNumber(7)]), true);
    expect(two.number).toEqual({ value: WAGON_NUMBER, wrong: false });
    expect(two.wheelsets.map((row) => [row.value, row.wrong])).toEqual([
      [checked(wheelsetNumber(7)).value, false],
      ['', false],
    ]);
    expect(two.wheelsets.map((row) => row.key).some((key) => form.wheelsets.some((old) => old.key === key))).toBe(
      false,
    );
    expect(two.refused.size).toBe(0);
    const nine = Array.from({ length: 9 }, (_, i) => wheelsetNumber(i + 1));
    expect(withVehicleTemplate(form, valid(WAGON_DIGITS, nine), true).wheelsets).toHaveLength(8);
    // A wheelset order's template, or one without wheelsets, leaves the rows.
    expect(withVehicleTemplate(form, valid(WAGON_DIGITS, nine), false).wheelsets).toBe(form.wheelsets);
    expect(withVehicleTemplate(form, valid(WAGON_DIGITS), true).wheelsets).toBe(form.wheelsets);
    // Without a number the typed one stays, and so does its mark.
    const unnumbered = withVehicleTemplate(form, valid(''), true);
    expect(unnumbered.number).toBe(form.number);
    expect(unnumbered.refused.has('number')).toBe(true);
  });

  it("takes a wheelset row's template by the row's key, wherever the row has moved to", () => {
    let form = withRowTemplate(filledWagon(), 2, busy);
    expect(isImporting(form)).toBe(true);
    // Only a wagon sends its rows: a row's import does not hold up a wheelset order.
    expect(isImporting(withType(form, 'WHEELSET'))).toBe(false);
    form = withRefusal(withRowRemoved(form, 0), refusedAs('CHECK_NUMBER', 'body.wagon.wheelsetsOutgoing.1.number'));
    // The row of key 2 is now the second; its mark goes with its new number.
    form = withRowTemplate(form, 2, valid(wheelsetNumber(9), [], 'asset-9'));
    expect(form.wheelsets[1]).toMatchObject({ key: 2, value: checked(wheelsetNumber(9)).value, wrong: false });
    expect(form.refused.size).toBe(0);
    expect(isImporting(form)).toBe(false);
    // A refused file leaves the number; the answer for a row that went changes nothing.
    const invalid: ImportState = { kind: 'invalid', filename: 'x.xml', messageKeys: [], detail: null };
    expect(withRowTemplate(form, 1, invalid).wheelsets[0]).toMatchObject({ key: 1, template: invalid });
    expect(withRowTemplate(form, 1, invalid).wheelsets[0]!.value).toBe(form.wheelsets[0]!.value);
    expect(withRowTemplate(form, 0, valid(wheelsetNumber(5)))).toBe(form);
    expect(isImporting(withVehicleTemplate(form, busy, true))).toBe(true);
  });
});

describe('the creation payload', () => {
  it("sends a wagon's digits, its wheelsets and the asset ids of valid templates only", () => {
    let form = withVehicleTemplate(filledWagon(), valid(WAGON_DIGITS, [], 'vehicle-asset'), true);
    form = withRowTemplate(form, 1, valid(wheelsetNumber(2), [], 'row-asset'));
    form = withRowTemplate(form, 2, { kind: 'invalid', filename: 'x.xml', messageKeys: [], detail: null });
    form = withExternal(withContractor(form, { value: 'DBC', text: 'DB Cargo' }), '  EXT-1 ');
    expect(orderRequest(form, IDS)).toEqual({
      ...IDS,
      type: 'WAGON',
      contractor: 'DBC',
      externalOrderNumber: 'EXT-1',
      maintenanceNumber: WAGON_DIGITS,
      wagon: {
        number: WAGON_DIGITS,
        assetId: 'vehicle-asset',
        wheelsetsOutgoing: [
          { number: wheelsetNumber(1) },
          { number: wheelsetNumber(2), assetId: 'row-asset' },
          { number: wheelsetNumber(3) },
          { number: wheelsetNumber(4) },
        ],
      },
    });
  });

  it('sends a wheelset order without rows, and no contractor as empty', () => {
    const form = withType(withNumberChecked(withNumber(newForm(), wheelsetNumber(3))), 'WHEELSET');
    expect(orderRequest(form, IDS)).toEqual({
      ...IDS,
      type: 'WHEELSET',
      contractor: '',
      externalOrderNumber: '',
      maintenanceNumber: wheelsetNumber(3),
      wheelset: { number: wheelsetNumber(3) },
    });
  });
});

describe('a refusal', () => {
  it("marks the fields a 400 names, with the check number's own message", () => {
    expect([...marksFrom(refusedAs('CHECK_NUMBER', 'body.maintenanceNumber', 'body.type'))]).toEqual([
      ['number', 'errors.CHECK_NUMBER'],
    ]);
    const conflict = new ApiFailure(409, 'CONFLICT', 'conflict', ['body.contractor']);
    expect(marksFrom(conflict).size).toBe(0);
    const form = withRefusal(filledWagon(), refusedAs('VALIDATION', 'body.contractor'));
    expect(withRefusal(form, conflict)).toBe(form);
    // A new refusal replaces the marks of the one before.
    expect([...withRefusal(form, refusedAs('VALIDATION', 'body.externalOrderNumber')).refused.keys()]).toEqual([
      'external',
    ]);
  });

  it("says the server's code where the catalogue has its message, else a general one", () => {
    const failure = refusedAs('CHECK_NUMBER');
    expect(messageKeyOf(failure, () => true)).toBe('errors.CHECK_NUMBER');
    expect(messageKeyOf(failure, () => false)).toBe('common.saveError');
  });
});

describe('saving against the real server', () => {
  let server: TestServer;
  /** A server that answers every call with 503, as a proxy does while the application is down. */
  let down: Server;
  let downUrl: string;
  const databases: VersDb[] = [];
  const browser = () => {
    const db = new VersDb(`versdb-add-order-${crypto.randomUUID()}`);
    databases.push(db);
    return db;
  };
  const signIn = async (userName: string) => {
    setApiOrigin(server.url);
    sessionStore.set(
      await call('auth/signin', signInResponseSchema, { method: 'POST', body: { userName, password: DEMO_PASSWORD } }),
    );
  };

  beforeAll(async () => {
    removeWindowStub();
    server = await startTestServer();
    down = createServer((_, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code: 'INTERNAL', message: 'Service unavailable' }));
    });
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
    await signIn('staff');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(databases.map((db) => db.delete()));
    await new Promise((resolve) => down?.close(resolve));
    await server?.close();
  });

  it('creates the order online; nothing waits on the device', async () => {
    const db = browser();
    const request = orderRequest(filledWagon(), { ...IDS, id: crypto.randomUUID() });
    const outcome = await submitOrder(db, request);
    expect(outcome).toMatchObject({ kind: 'created' });
    const order = outcome.kind === 'created' ? outcome.order : null;
    expect(order).toMatchObject({ id: request.id, type: 'WAGON', wagonNumber: WAGON_DIGITS });
    expect(order!.number).toMatch(/^\d{4}-\d{6}$/);
    expect(await db.orders.count()).toBe(0);
    // The same form saved again (its answer lost) finds the order created first.
    expect(await submitOrder(db, request)).toMatchObject({ kind: 'created', order: { number: order!.number } });
  });

  it('keeps the order on the device with sync flag 0 and its payload without a network', async () => {
    const db = browser();
    const request = orderRequest(withExternal(filledWagon(), 'EXT-OFF'), { ...IDS, id: crypto.randomUUID() });
    const shown = notifications.current();
    setApiOrigin(CLOSED_PORT);
    try {
      expect(await submitOrder(db, request)).toMatchObject({ kind: 'savedLocally', order: { id: request.id } });
    } finally {
      setApiOrigin(server.url);
    }
    const kept = await db.orders.get(request.id);
    expect(kept).toMatchObject({ sent: 0, request, order: { status: ORDER_STATUSES.CREATED, number: '' } });
    // The screen says it itself: no global "no connection" message.
    expect(notifications.current()).toBe(shown);
  });

  it('keeps the order on the device on a 5xx answer', async () => {
    const db = browser();
    const request = orderRequest(filledWagon(), { ...IDS, id: crypto.randomUUID() });
    setApiOrigin(downUrl);
    try {
      expect((await submitOrder(db, request)).kind).toBe('savedLocally');
    } finally {
      setApiOrigin(server.url);
    }
    expect(await db.orders.get(request.id)).toMatchObject({ sent: 0, request });
  });

  it('refuses when neither the server nor the device can take the order', async () => {
    const db = browser();
    await db.open();
    db.close({ disableAutoOpen: true });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setApiOrigin(CLOSED_PORT);
    try {
      const outcome = await submitOrder(db, orderRequest(filledWagon(), { ...IDS, id: crypto.randomUUID() }));
      expect(outcome).toMatchObject({ kind: 'refused', failure: { status: 0 } });
      expect(logged).toHaveBeenCalledWith('order not stored locally', expect.anything());
    } finally {
      setApiOrigin(server.url);
      logged.mockRestore();
    }
  });

  it("marks the fields of the server's 400 and keeps nothing on the device", async () => {
    const db = browser();
    // A wheelset number the screen would have refused already: the server applies the same check.
    const form = withRowNumber(filledWagon(), 1, '123456789012');
    const outcome = await submitOrder(db, orderRequest(form, { ...IDS, id: crypto.randomUUID() }));
    expect(outcome).toMatchObject({ kind: 'refused', failure: { status: 400, code: 'CHECK_NUMBER' } });
    if (outcome.kind !== 'refused') return;
    expect([...marksFrom(outcome.failure)]).toEqual([['wheelset-1', 'errors.CHECK_NUMBER']]);
    const marked = withRefusal(form, outcome.failure);
    expect([...withRowNumber(marked, 0, wheelsetNumber(5)).refused.keys()]).toEqual(['wheelset-1']);
    expect(isFormInvalid(withRowNumber(marked, 1, wheelsetNumber(2)))).toBe(false);
    expect(await db.orders.count()).toBe(0);
  });

  it('leaves a 403 to the global reaction', async () => {
    const db = browser();
    for (let shown = notifications.current(); shown; shown = notifications.current()) notifications.dismiss(shown.id);
    await signIn('holder');
    try {
      const outcome = await submitOrder(db, orderRequest(filledWagon(), { ...IDS, id: crypto.randomUUID() }));
      expect(outcome).toMatchObject({ kind: 'reported', failure: { status: 403 } });
      // The refusal's own code says why: the holder's roles may not change orders.
      expect(outcome).toMatchObject({ failure: { code: 'ORDER_WRITE_FORBIDDEN' } });
      expect(notifications.current()?.messageKey).toBe('errors.ORDER_WRITE_FORBIDDEN');
    } finally {
      await signIn('staff');
    }
    expect(await db.orders.count()).toBe(0);
  });
});
