import 'fake-indexeddb/auto';
import { type Activity, SENT_STATES } from '@vers/domain';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { downloadUnsent, exportUnsent, importUnsent, unsentFileName, type UnsentFile } from './unsent-file.ts';
import { localOrder, unsentRow } from './test-support/unsent-fixtures.ts';
import { type LocalOrder, VersDb } from './versdb.ts';

const databases: VersDb[] = [];

function device(): VersDb {
  const db = new VersDb(`versdb-unsent-${crypto.randomUUID()}`);
  databases.push(db);
  return db;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await Promise.all(databases.splice(0).map((db) => db.delete()));
});

/** An order the server knows (sent 1), or one made offline that waits to be sent (sent 0) with its request. */
function order(id = crypto.randomUUID(), sent: 0 | 1 = 1, owner?: number): LocalOrder {
  return localOrder(
    {
      id,
      number: sent ? 'A-17' : '',
      externalOrderNumber: 'EXT',
      contractor: 'DBC',
      lastCounter: sent ? 10 : 0,
    },
    {
      sent,
      created: '2026-11-20T08:00:00.000Z',
      ...(sent === 0
        ? {
            request: {
              id,
              type: 'WAGON',
              maintenanceNumber: '21 81 2471 217-3',
              wagon: { wheelsetsOutgoing: [{ number: '' }, { number: '' }] },
            },
          }
        : {}),
      ...(owner !== undefined ? { owner } : {}),
    },
  );
}

let clock = 0;
/** An unsent change of the order by user 7, each with its own value and a later creation time. */
function row(orderId: string, fields: Partial<Activity> = {}): Activity {
  clock += 1;
  return unsentRow({
    orderId,
    outputValue: JSON.stringify({ value: String(22_000 + clock), CaptureDate: '2026-11-21T10:00:00.000Z' }),
    created: new Date(Date.UTC(2026, 10, 21, 10, 0, clock)).toISOString(),
    owner: 7,
    ...fields,
  });
}

/** Every row of both stores the file touches, in key order, for before/after comparisons. */
/** An order row as it was written: without the search keys the database adds to every row (versdb.ts). */
const asWritten = (row: LocalOrder | undefined) => {
  if (!row) return row;
  const { searchKeys: _index, ...written } = row;
  return written;
};

async function contents(db: VersDb) {
  return { orders: (await db.orders.toArray()).map(asWritten), orderResults: await db.orderResults.toArray() };
}

describe('exportUnsent', () => {
  let db: VersDb;
  let known: LocalOrder;
  let offline: LocalOrder;
  let untouched: LocalOrder;
  let rows: Activity[];

  beforeEach(async () => {
    db = device();
    known = order();
    offline = order(undefined, 0, 7);
    untouched = order();
    rows = [
      row(known.id, { counterLocal: 0 }),
      row(known.id, { counterLocal: 1, owner: 8 }),
      row(known.id, { sent: SENT_STATES.SENT, counter: 11, counterLocal: 2 }),
      // a revert waiting to be sent keeps its server counter
      row(known.id, { sent: SENT_STATES.UNSENT, counter: 9, reverted: true, counterLocal: 3 }),
      row(known.id, {
        sent: SENT_STATES.REFUSED,
        refusal: { status: 400, code: 'INCOMPATIBLE_TYPE', message: 'no', at: '2026-11-21T11:00:00.000Z' },
      }),
      row(offline.id, { counterLocal: 0 }),
      row(untouched.id, { sent: SENT_STATES.SENT, counter: 12 }),
      // an order this device no longer has: the rows travel without it
      row(crypto.randomUUID(), { sent: SENT_STATES.ORDER_UNKNOWN }),
    ];
    await db.orders.bulkAdd([known, offline, untouched]);
    await db.orderResults.bulkAdd(rows);
  });

  it('holds the rows the server has not applied, the offline orders and the orders of those rows', async () => {
    const file = await exportUnsent(db, new Date('2026-11-22T09:30:00.000Z'));
    expect(file).toMatchObject({ format: 'vers-unsent-changes', version: 1, exported: '2026-11-22T09:30:00.000Z' });
    const notSent = rows.filter((r) => r.sent !== SENT_STATES.SENT);
    expect(file.orderResults.map((r) => r.id).sort()).toEqual(notSent.map((r) => r.id).sort());
    expect(file.orderResults.every((r) => r.sent !== SENT_STATES.SENT)).toBe(true);
    expect(file.orders.map((o) => o.id).sort()).toEqual([known.id, offline.id].sort());
    // the file is what the device holds, field by field (owner, refusal, reverted, counters)
    for (const exported of file.orderResults) expect(exported).toEqual(rows.find((r) => r.id === exported.id));
    expect(file.orders.find((o) => o.id === offline.id)).toEqual(offline);
  });

  it('an import into an empty device gives the same rows', async () => {
    const file = await exportUnsent(db);
    const other = device();
    expect(await importUnsent(other, JSON.stringify(file))).toEqual({ ok: true, orders: 2, changes: 6, skipped: 0 });
    const imported = await contents(other);
    expect(imported.orders).toEqual([...file.orders].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect([...imported.orderResults].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      [...file.orderResults].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    // and exporting again there gives the same file
    expect({ ...(await exportUnsent(other)), exported: file.exported }).toEqual(file);
  });

  it('an import of the same file into the same device changes nothing and counts everything as already here', async () => {
    const before = await contents(db);
    const file = JSON.stringify(await exportUnsent(db));
    // six rows and the one offline order; the synced order beside them is context, not work
    expect(await importUnsent(db, file)).toEqual({ ok: true, orders: 0, changes: 0, skipped: 7 });
    expect(await contents(db)).toEqual(before);
  });
});

describe('importUnsent', () => {
  it('skips what the device already has and leaves it unchanged, even when it was sent meanwhile', async () => {
    const source = device();
    const target = device();
    const shared = order();
    const a = row(shared.id, { counterLocal: 0 });
    const b = row(shared.id, { counterLocal: 1 });
    await source.orders.add(shared);
    await source.orderResults.bulkAdd([a, b]);
    const file = JSON.stringify(await exportUnsent(source));

    const sentHere: Activity = { ...a, sent: SENT_STATES.SENT, counter: 15, lastModified: '2026-11-21T12:00:00Z' };
    const olderOrder: LocalOrder = { ...shared, order: { ...shared.order, contractor: 'OTHER' } };
    await target.orders.add(olderOrder);
    await target.orderResults.add(sentHere);

    expect(await importUnsent(target, file)).toEqual({ ok: true, orders: 0, changes: 1, skipped: 1 });
    expect(asWritten(await target.orders.get(shared.id))).toEqual(olderOrder);
    expect(await target.orderResults.get(a.id)).toEqual(sentHere);
    expect(await target.orderResults.get(b.id)).toMatchObject({ sent: 0, counterLocal: 1, owner: 7 });
  });

  it('numbers imported waiting rows after the waiting rows of the order on the device, in their own order', async () => {
    const target = device();
    const shared = order();
    await target.orders.add(shared);
    await target.orderResults.bulkAdd([
      row(shared.id, { counterLocal: 0, owner: 3 }),
      row(shared.id, { counterLocal: 1, owner: 3 }),
      row(shared.id, { counterLocal: 2, owner: 3 }),
      // sent rows do not count: the local counter only orders the waiting ones
      row(shared.id, { counterLocal: 40, sent: SENT_STATES.SENT, counter: 11 }),
    ]);
    const otherOrder = order();
    const first = row(shared.id, { counterLocal: 5 });
    const second = row(shared.id, { counterLocal: 1 });
    const third = row(shared.id, { counterLocal: 9 });
    const refused = row(shared.id, { counterLocal: 2, sent: SENT_STATES.REFUSED });
    const elsewhere = row(otherOrder.id, { counterLocal: 4 });
    const file: UnsentFile = {
      format: 'vers-unsent-changes',
      version: 1,
      exported: new Date().toISOString(),
      orders: [shared, otherOrder],
      orderResults: [first, second, third, refused, elsewhere],
    };
    expect(await importUnsent(target, JSON.stringify(file))).toEqual({ ok: true, orders: 1, changes: 5, skipped: 0 });
    const local = async (id: string) => (await target.orderResults.get(id))?.counterLocal;
    // 1 < 5 < 9 shifted as a block behind the device's 0, 1, 2
    expect([await local(second.id), await local(first.id), await local(third.id)]).toEqual([3, 7, 11]);
    expect(await local(refused.id)).toBe(2); // not waiting: left as in the file
    expect(await local(elsewhere.id)).toBe(4); // nothing here in the way: kept as it was
    expect((await target.orderResults.get(first.id))?.owner).toBe(7); // still the work of who made it
  });

  describe('a bad file is refused with its reason and changes nothing', () => {
    let target: VersDb;
    let good: UnsentFile;
    let before: Awaited<ReturnType<typeof contents>>;

    beforeEach(async () => {
      target = device();
      const here = order();
      await target.orders.add(here);
      await target.orderResults.bulkAdd([row(here.id), row(here.id, { counterLocal: 1 })]);
      before = await contents(target);
      const incoming = order(undefined, 0, 7);
      good = {
        format: 'vers-unsent-changes',
        version: 1,
        exported: new Date().toISOString(),
        orders: [incoming],
        orderResults: [row(incoming.id), row(here.id)],
      };
    });

    const cases: [string, () => string, string][] = [
      ['not JSON', () => '{"format": "vers-unsent-changes", ', 'notJson'],
      ['an empty file', () => '', 'notJson'],
      ['JSON of another shape', () => JSON.stringify({ hello: 'world' }), 'notVersFile'],
      ['a JSON array', () => JSON.stringify([good]), 'notVersFile'],
      ['JSON null', () => 'null', 'notVersFile'],
      ['a newer version', () => JSON.stringify({ ...good, version: 2 }), 'newerVersion'],
      ['version as text', () => JSON.stringify({ ...good, version: '1' }), 'invalid'],
      ['no rows list', () => JSON.stringify({ ...good, orderResults: undefined }), 'invalid'],
      [
        'a row with a malformed field',
        () => JSON.stringify({ ...good, orderResults: [good.orderResults[0], { ...good.orderResults[1], sent: 'x' }] }),
        'invalid',
      ],
      [
        'a row with a counter that is not a number',
        () => JSON.stringify({ ...good, orderResults: [{ ...good.orderResults[0], counterLocal: '1' }] }),
        'invalid',
      ],
      [
        'a sent row',
        () => JSON.stringify({ ...good, orderResults: [{ ...good.orderResults[0], sent: 1, counter: 3 }] }),
        'invalid',
      ],
      [
        'a row of an unknown kind',
        () => JSON.stringify({ ...good, orderResults: [{ ...good.orderResults[0], activityType: 'MAGIC' }] }),
        'invalid',
      ],
      [
        'the same row twice',
        () => JSON.stringify({ ...good, orderResults: [good.orderResults[0], good.orderResults[0]] }),
        'invalid',
      ],
      [
        'an order whose data has another id',
        () =>
          JSON.stringify({
            ...good,
            orders: [{ ...good.orders[0], order: { ...good.orders[0]!.order, id: crypto.randomUUID() } }],
          }),
        'invalid',
      ],
      [
        'an order without its data',
        () => JSON.stringify({ ...good, orders: [{ ...good.orders[0], order: undefined }] }),
        'invalid',
      ],
    ];

    it.each(cases)('%s', async (_name, text, reason) => {
      expect(await importUnsent(target, text())).toEqual({ ok: false, reason });
      expect(await contents(target)).toEqual(before);
    });

    it('the good file itself is taken (the cases above differ from it in one point only)', async () => {
      expect(await importUnsent(target, JSON.stringify(good))).toMatchObject({ ok: true, orders: 1, changes: 2 });
    });
  });
});

/** jsdom's Blob has no `text()`; its FileReader reads it. */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

describe('unsentFileName and downloadUnsent', () => {
  it('names the file by the local date and time', () => {
    expect(unsentFileName(new Date(2026, 10, 22, 9, 30, 59))).toBe('vers-unsent-2026-11-22-0930.json');
    expect(unsentFileName(new Date(2027, 0, 3, 17, 5))).toBe('vers-unsent-2027-01-03-1705.json');
  });

  it('clicks a temporary download link holding the export as JSON', async () => {
    const db = device();
    const here = order(undefined, 0, 7);
    await db.orders.add(here);
    await db.orderResults.add(row(here.id));
    const blobs: Blob[] = [];
    // jsdom has no object URLs.
    const urls = URL as unknown as Record<string, unknown>;
    urls.createObjectURL = (blob: Blob) => {
      blobs.push(blob);
      return 'blob:vers-test';
    };
    urls.revokeObjectURL = () => undefined;
    onTestFinished(() => {
      delete urls.createObjectURL;
      delete urls.revokeObjectURL;
    });
    const clicked: { download: string; href: string; inDocument: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.getAttribute('href') ?? '', inDocument: this.isConnected });
    });
    const now = new Date(2026, 10, 22, 9, 30);
    const file = await downloadUnsent(db, now);
    expect(clicked).toEqual([
      { download: 'vers-unsent-2026-11-22-0930.json', href: 'blob:vers-test', inDocument: true },
    ]);
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
    expect(blobs[0]?.type).toBe('application/json');
    expect(JSON.parse(await textOf(blobs[0]!))).toEqual(file);
    expect(file.orderResults).toHaveLength(1);
  });
});
