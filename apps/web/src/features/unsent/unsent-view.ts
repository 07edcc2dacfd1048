import {
  ACTIVITY_TYPES,
  type Activity,
  type FieldDef,
  ALL_ORDER_TYPES,
  formatVehicleNumber,
  isOrderType,
  type OrderType,
  parseOutputValue,
  type Refusal,
  resolveKey,
  SENT_STATES,
  type ValueSide,
  valueOf,
} from '@vers/domain';
import type { LocalOrder, VersDb } from '../../offline/versdb.ts';
import { fieldLabelKey } from '../orders/editor/labels.ts';

/** What the card shows, read from the local database in one go (and again on every change of it). */
export interface UnsentView {
  /** Rows the server has not applied: sent 0 (waiting), 2 (order unknown) and 3 (refused). */
  rows: Activity[];
  /** Orders made offline and not yet on the server. */
  unsentOrders: LocalOrder[];
  /** The orders the not-applied rows belong to, by id, for their number. */
  orders: Map<string, LocalOrder>;
}

export async function readUnsentView(db: VersDb): Promise<UnsentView> {
  return db.transaction('r', db.orders, db.orderResults, async () => {
    const rows = await db.orderResults
      .where('sent')
      .anyOf([SENT_STATES.UNSENT, SENT_STATES.ORDER_UNKNOWN, SENT_STATES.REFUSED])
      .toArray();
    const unsentOrders = await db.orders.where('sent').equals(0).toArray();
    const ids = [...new Set(rows.filter(isNotApplied).map((row) => row.orderId))];
    const orders = new Map(unsentOrders.map((order) => [order.id, order]));
    for (const order of await db.orders.bulkGet(ids.filter((id) => !orders.has(id)))) {
      if (order) orders.set(order.id, order);
    }
    return { rows, unsentOrders, orders };
  });
}

export interface WaitingCount {
  /** Changes (sent 0) and orders made offline that wait to be sent. */
  total: number;
  /** Of those, the ones another user of this device made: only that user's session sends them. */
  others: number;
}

/** Counts the waiting work; `userId` is the signed-in user (work without an owner is anybody's). */
export function countWaiting(
  rows: readonly Pick<Activity, 'sent' | 'owner'>[],
  orders: readonly Pick<LocalOrder, 'sent' | 'owner'>[],
  userId: number | undefined,
): WaitingCount {
  const waiting = [...rows.filter((row) => row.sent === SENT_STATES.UNSENT), ...orders.filter((o) => o.sent === 0)];
  return {
    total: waiting.length,
    others: waiting.filter((item) => item.owner !== undefined && item.owner !== userId).length,
  };
}

/** A change the server did not apply: its order is unknown there, it was refused, or it waits with a reason. */
export function isNotApplied(row: Pick<Activity, 'sent' | 'refusal'>): boolean {
  return row.sent === SENT_STATES.ORDER_UNKNOWN || row.sent === SENT_STATES.REFUSED || row.refusal !== undefined;
}

/** One entry of the list of what the server did not apply: a change, or an order it refused to create. */
export type NotAppliedItem =
  | { kind: 'change'; id: string; created: string; row: Activity; order: LocalOrder | undefined }
  | { kind: 'order'; id: string; created: string; order: LocalOrder };

/** The entries of the list, newest first. */
export function notAppliedItems(view: UnsentView): NotAppliedItem[] {
  const items: NotAppliedItem[] = [
    ...view.rows.filter(isNotApplied).map((row) => ({
      kind: 'change' as const,
      id: row.id,
      created: row.created,
      row,
      order: view.orders.get(row.orderId),
    })),
    ...view.unsentOrders
      .filter((order) => order.refusal !== undefined)
      .map((order) => ({ kind: 'order' as const, id: order.id, created: order.created ?? order.order.created, order })),
  ];
  return items.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : a.id < b.id ? -1 : 1));
}

/** Refusal codes with a message of their own (`unsent.reason.<code>`); others show the server's message. */
export const KNOWN_REFUSAL_CODES: readonly string[] = [
  'INCOMPATIBLE_TYPE',
  'ORDER_READ_ONLY',
  'NOT_FOUND',
  'VALIDATION',
];

/** A translation key, or the server's own words when the reason has no message here. */
export type Reason = { key: string } | { text: string };

export function reasonOf(item: { sent?: number; refusal?: Refusal }): Reason {
  if (item.sent === SENT_STATES.ORDER_UNKNOWN) return { key: 'unsent.reason.orderUnknown' };
  const code = item.refusal?.code;
  if (code && KNOWN_REFUSAL_CODES.includes(code)) return { key: `unsent.reason.${code}` };
  const message = item.refusal?.message.trim();
  return message ? { text: message } : { key: 'unsent.reason.refused' };
}

/** How a result key is named: a catalogue field (translation keys), the order status, or only its path. */
export type FieldView =
  | {
      kind: 'field';
      tabKey: string;
      labelKey: string;
      side: ValueSide;
      /** The field's kind, which says how its values read (fieldText). */
      fieldKind: FieldDef['kind'] | undefined;
    }
  | { kind: 'status' }
  | { kind: 'path'; key: string };

export function fieldOf(key: string, activityType: string, type?: string): FieldView {
  if (activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) return { kind: 'status' };
  const types: readonly OrderType[] = isOrderType(type) ? [type] : ALL_ORDER_TYPES;
  for (const orderType of types) {
    const resolved = resolveKey(orderType, key);
    if (!resolved) continue;
    return {
      kind: 'field',
      tabKey: `catalogue.tab.${orderType}.${resolved.tab.id}`,
      // A whole list entry (only ever deleted) is named by its chapter.
      labelKey: resolved.field ? fieldLabelKey(resolved.field) : `catalogue.chapter.${resolved.chapter.id}`,
      side: resolved.side,
      fieldKind: resolved.field?.kind,
    };
  }
  return { kind: 'path', key };
}

/** What a change wrote: a deletion, a status, or the value inside the stored attribute. */
export type ValueView = { kind: 'deleted' } | { kind: 'status'; status: string } | { kind: 'value'; value: unknown };

export function valueOfRow(row: Pick<Activity, 'activityType' | 'outputValue'>): ValueView {
  if (row.activityType === ACTIVITY_TYPES.XML_DELETE) return { kind: 'deleted' };
  const parsed = parseOutputValue(row.outputValue);
  if (row.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) return { kind: 'status', status: String(parsed) };
  return { kind: 'value', value: valueOf(parsed) };
}

/** The order as users know it: its number and its wagon or wheelset number; null when the device lacks it. */
export function orderLabel(row: LocalOrder | undefined): string | null {
  if (!row) return null;
  const { number, wagonNumber, wheelsetNumber, maintenanceNumber } = row.order;
  const vehicle = formatVehicleNumber(wagonNumber || wheelsetNumber || maintenanceNumber || '');
  return [number, vehicle].filter((part) => part).join(' · ') || null;
}
