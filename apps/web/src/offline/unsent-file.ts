import {
  ALL_ACTIVITY_TYPES,
  type Activity,
  type CreateOrderRequest,
  compareActivities,
  nextCounterLocal,
  orderSchema,
  orderTypeSchema,
  SENT_STATES,
} from '@vers/domain';
import { z } from 'zod';
import type { LocalOrder, VersDb } from './versdb.ts';

/**
 * The file that keeps unsent work safe when a device cannot reach the server (a tablet to be reset, a browser whose
 * storage may be cleared): every change the server has not applied, the orders made offline, and the orders those
 * changes belong to, so that another device can open them after an import.
 */
export const UNSENT_FILE_FORMAT = 'vers-unsent-changes';
export const UNSENT_FILE_VERSION = 1;

export interface UnsentFile {
  format: typeof UNSENT_FILE_FORMAT;
  version: typeof UNSENT_FILE_VERSION;
  /** ISO time of the export. */
  exported: string;
  orders: LocalOrder[];
  orderResults: Activity[];
}

/** Rows the server has not applied: waiting (reverts waiting to be sent included), order unknown, refused. */
const NOT_APPLIED = [SENT_STATES.UNSENT, SENT_STATES.ORDER_UNKNOWN, SENT_STATES.REFUSED] as const;

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Everything the server has not applied yet, read in one transaction so the file is one consistent picture. */
export function exportUnsent(db: VersDb, now: Date = new Date()): Promise<UnsentFile> {
  return db.transaction('r', db.orders, db.orderResults, async () => {
    const orderResults = (
      await db.orderResults
        .where('sent')
        .anyOf([...NOT_APPLIED])
        .toArray()
    ).sort((a, b) => compareText(a.orderId, b.orderId) || compareActivities(a, b));
    const unsentOrders = await db.orders.where('sent').equals(0).toArray();
    const listed = new Set(unsentOrders.map((order) => order.id));
    const others = [...new Set(orderResults.map((row) => row.orderId))].filter((id) => !listed.has(id));
    const context = (await db.orders.bulkGet(others)).filter((order): order is LocalOrder => order !== undefined);
    return {
      format: UNSENT_FILE_FORMAT,
      version: UNSENT_FILE_VERSION,
      exported: now.toISOString(),
      // The search keys are the device's index of the order, made again wherever the file is read in (versdb.ts).
      orders: [...unsentOrders, ...context]
        .sort((a, b) => compareText(a.id, b.id))
        .map(({ searchKeys: _index, ...order }) => order),
      orderResults,
    };
  });
}

const two = (n: number) => String(n).padStart(2, '0');

/** `vers-unsent-2026-11-22-0930.json`, in the device's local time (what the user sees on the clock). */
export function unsentFileName(now: Date = new Date()): string {
  const date = `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
  return `vers-unsent-${date}-${two(now.getHours())}${two(now.getMinutes())}.json`;
}

/** Saves the export as a file through the browser's download (browser only). Returns what was written. */
export async function downloadUnsent(db: VersDb, now: Date = new Date()): Promise<UnsentFile> {
  const file = await exportUnsent(db, now);
  const blob = new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = unsentFileName(now);
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Some browsers start reading the URL only after the click's task: revoke it a little later.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return file;
}

// ---------------------------------------------------------------------------------------------------------------
// Import

const refusalSchema = z.object({
  status: z.number().int(),
  code: z.string().max(100),
  message: z.string().max(10_000),
  at: z.string().max(100),
});

const activitySchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  key: z.string().min(1).max(500),
  outputValue: z.string().max(100_000),
  activityType: z.enum(ALL_ACTIVITY_TYPES as [Activity['activityType'], ...Activity['activityType'][]]),
  created: z.iso.datetime({ offset: true }),
  lastModified: z.string().max(100).optional(),
  counter: z.number().int().min(0),
  counterLocal: z.number().int().min(0),
  lastModifier: z.string().max(500).optional(),
  reverted: z.boolean(),
  sent: z.union([z.literal(SENT_STATES.UNSENT), z.literal(SENT_STATES.ORDER_UNKNOWN), z.literal(SENT_STATES.REFUSED)]),
  restores: z.number().int().nullable().optional(),
  owner: z.number().int().optional(),
  refusal: refusalSchema.optional(),
});

/**
 * The creation payload of an order made offline, checked for its shape only and otherwise kept as it is: the
 * server checks it when it is sent, and a payload it refused (kept with its reason) must still travel.
 */
const requestSchema = z.looseObject({ id: z.uuid().optional(), type: orderTypeSchema, maintenanceNumber: z.string() });

const localOrderSchema = z
  .object({
    id: z.uuid(),
    sent: z.union([z.literal(0), z.literal(1)]),
    order: orderSchema,
    request: requestSchema.optional(),
    created: z.string().max(100).optional(),
    owner: z.number().int().optional(),
    refusal: refusalSchema.optional(),
  })
  .refine((row) => row.order.id === row.id, { path: ['order', 'id'], message: 'differs from the row id' });

const uniqueIds = (rows: readonly { id: string }[]) => new Set(rows.map((row) => row.id)).size === rows.length;

const unsentFileSchema = z.object({
  format: z.literal(UNSENT_FILE_FORMAT),
  version: z.literal(UNSENT_FILE_VERSION),
  exported: z.string().max(100),
  orders: z.array(localOrderSchema).refine(uniqueIds, 'an order appears twice'),
  orderResults: z.array(activitySchema).refine(uniqueIds, 'a change appears twice'),
});

export type ImportRefusal = 'notJson' | 'notVersFile' | 'newerVersion' | 'invalid';

export type ImportResult =
  | {
      ok: true;
      /** Orders added to this device. */
      orders: number;
      /** Changes (order result rows) added to this device. */
      changes: number;
      /**
       * Unsent work of the file this device already has, left as it is: changes whose id is here (possibly sent
       * meanwhile), and orders made offline that are here already.
       */
      skipped: number;
    }
  | { ok: false; reason: ImportRefusal };

/** The stored row of an order read from a file; a request absent from the file stays absent. */
function toLocalOrder(order: z.infer<typeof localOrderSchema>): LocalOrder {
  const { request, ...rest } = order;
  return request ? { ...rest, request: request as CreateOrderRequest } : rest;
}

/** Why a parsed JSON value is not an importable file, or the file. */
function readFile(
  data: unknown,
): { ok: true; file: z.infer<typeof unsentFileSchema> } | { ok: false; reason: ImportRefusal } {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'notVersFile' };
  const head = data as { format?: unknown; version?: unknown };
  if (head.format !== UNSENT_FILE_FORMAT) return { ok: false, reason: 'notVersFile' };
  if (typeof head.version === 'number' && Number.isInteger(head.version) && head.version > UNSENT_FILE_VERSION) {
    return { ok: false, reason: 'newerVersion' };
  }
  const parsed = unsentFileSchema.safeParse(data);
  return parsed.success ? { ok: true, file: parsed.data } : { ok: false, reason: 'invalid' };
}

/**
 * Adds the work of an exported file to this device, in one transaction. Nothing already here is changed: orders
 * and changes whose id is on the device are skipped. Imported waiting changes (sent 0) get local counters after
 * the order's waiting changes on this device, keeping their own order, so they are sent after them. Whose work
 * they are (`owner`) stays as in the file: the scheduler sends them in that user's session. A file that is not
 * valid as a whole changes nothing.
 */
export async function importUnsent(db: VersDb, text: string): Promise<ImportResult> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'notJson' };
  }
  const read = readFile(data);
  if (!read.ok) return read;
  const { file } = read;

  return db.transaction('rw', db.orders, db.orderResults, async () => {
    const presentOrders = await db.orders.bulkGet(file.orders.map((order) => order.id));
    const newOrders: LocalOrder[] = [];
    let skipped = 0;
    file.orders.forEach((order, i) => {
      if (presentOrders[i] === undefined) newOrders.push(toLocalOrder(order));
      else if (order.sent === 0) skipped += 1;
    });

    const presentRows = await db.orderResults.bulkGet(file.orderResults.map((row) => row.id));
    const newRows: Activity[] = file.orderResults.filter((_, i) => presentRows[i] === undefined);
    skipped += file.orderResults.length - newRows.length;

    const waitingByOrder = new Map<string, Activity[]>();
    for (const row of newRows) {
      if (row.sent !== SENT_STATES.UNSENT) continue;
      const rows = waitingByOrder.get(row.orderId);
      if (rows) rows.push(row);
      else waitingByOrder.set(row.orderId, [row]);
    }
    for (const [orderId, rows] of waitingByOrder) {
      // Shifted as a block behind the order's waiting rows here: their relative order (and the numbers themselves,
      // when nothing here is in the way) stays as it was.
      const here = await db.orderResults.where('[sent+orderId]').equals([SENT_STATES.UNSENT, orderId]).toArray();
      const lowest = Math.min(...rows.map((row) => row.counterLocal));
      const shift = Math.max(0, nextCounterLocal(here) - lowest);
      for (const row of rows) row.counterLocal += shift;
    }

    await db.orders.bulkAdd(newOrders);
    await db.orderResults.bulkAdd(newRows);
    return { ok: true as const, orders: newOrders.length, changes: newRows.length, skipped };
  });
}
