import type { Order } from '../contract/orders.ts';
import { normalizeVehicleNumber } from './vehicle-number.ts';
import { ALL_ORDER_STATUSES, type OrderStatus, displayStatus, isReadOnlyStatus } from './status.ts';

/*
 * The order list of a workshop with thousands of orders (docs/requirements/orders.md#order-list-at-scale): the server
 * answers it page by page (sorted, filtered, searched) while online, and the device answers it from the orders it keeps
 * while offline. Both follow the rules here: the server's SQL (apps/server/src/orders/list.ts) sorts as
 * `compareOrders` does, and searches as `matchesOrderSearch` does, which a test holds them to.
 */

/** The list's columns (docs/requirements/orders.md#order-list), each sortable. */
export const ORDER_LIST_COLUMNS = [
  'contractor',
  'externalOrderNumber',
  'importedDate',
  'maintenanceNumber',
  'number',
  'status',
  'type',
] as const;
export type OrderListColumn = (typeof ORDER_LIST_COLUMNS)[number];
/** What a list can be sorted by: a column, or the creation time (the default, newest first). */
export const ORDER_SORTS = [...ORDER_LIST_COLUMNS, 'created'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export type SortDirection = 'asc' | 'desc';

/** Rows per page the list offers; the server answers at most the largest. */
export const ORDER_PAGE_SIZES = [10, 25, 50, 100] as const;
export const MAX_ORDER_PAGE_SIZE = 100;

/**
 * How long a device keeps a done order for offline work after it was last changed or opened
 * (docs/decisions.md, "Which orders does a device keep?").
 */
export const OFFLINE_DAYS = 30;

/** The search as both sides compare it: without spaces and hyphens, in lower case. */
export function orderSearchNeedle(search: string): string {
  return normalizeVehicleNumber(search).toLowerCase();
}

/** The numbers an order is found by: its wagon or wheelset number, its order number, its wheelsets' numbers. */
export function orderSearchNumbers(order: Order & { wheelsetNumbers?: readonly string[] }): string[] {
  // Rows written before an order had all its fields (and pared-down test rows) have none to key.
  const numbers = [order.maintenanceNumber, order.number, ...(order.wheelsetNumbers ?? [])].map((number) =>
    orderSearchNeedle(number ?? ''),
  );
  return [...new Set(numbers.filter((number) => number !== ''))];
}

/** True when the search (a part of a number, anywhere in it) finds the order; an empty search finds every order. */
export function matchesOrderSearch(order: Order & { wheelsetNumbers?: readonly string[] }, search: string): boolean {
  const needle = orderSearchNeedle(search);
  return needle === '' || orderSearchNumbers(order).some((number) => number.includes(needle));
}

/**
 * Every ending of every number the order is found by: an index over them answers "a part of a number, anywhere in
 * it" as a prefix lookup (the device's IndexedDB index `*searchKeys` of the orders store).
 */
export function orderSearchKeys(order: Order & { wheelsetNumbers?: readonly string[] }): string[] {
  const keys = new Set<string>();
  for (const number of orderSearchNumbers(order)) {
    for (let i = 0; i < number.length; i++) keys.add(number.slice(i));
  }
  return [...keys];
}

/** Which statuses a status filter keeps: `open` (not done), `done`, or one status as users see it. */
export const ORDER_STATUS_FILTERS = ['open', 'done', ...ALL_ORDER_STATUSES] as const;
export type OrderStatusFilter = (typeof ORDER_STATUS_FILTERS)[number];

/** The statuses a filter keeps; DONE keeps DONE_ARCHIVE_REQUESTED too, which users see as DONE. */
export function statusesOf(filter: OrderStatusFilter): readonly OrderStatus[] {
  if (filter === 'open') return ALL_ORDER_STATUSES.filter((status) => !isReadOnlyStatus(status));
  if (filter === 'done') return ALL_ORDER_STATUSES.filter(isReadOnlyStatus);
  return ALL_ORDER_STATUSES.filter((status) => displayStatus(status) === displayStatus(filter));
}

/**
 * Code-unit order, as PostgreSQL's "C" collation sorts UTF-8 bytes: the same order for every text without characters
 * beyond U+FFFF (numbers, codes and names of the list).
 */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const statusRank = (status: string) => ALL_ORDER_STATUSES.indexOf(status as OrderStatus);

/** The value an order is sorted by; null sorts last in both directions. */
function sortValue(order: Order, sort: OrderSort): string | number | null {
  switch (sort) {
    case 'status':
      return statusRank(order.status);
    case 'importedDate':
      return order.importedDate;
    default:
      return order[sort];
  }
}

/**
 * The list's order: by the chosen column (statuses in their life-cycle order, texts by code point, empty imported
 * dates last), then newest first, then by id, so that pages never overlap.
 */
export function compareOrders(sort: OrderSort, direction: SortDirection): (a: Order, b: Order) => number {
  const sign = direction === 'asc' ? 1 : -1;
  return (a, b) => {
    const x = sortValue(a, sort);
    const y = sortValue(b, sort);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : byCodePoint(String(x), String(y));
      if (order !== 0) return sign * order;
    }
    return byCodePoint(b.created, a.created) || byCodePoint(a.id, b.id);
  };
}

/**
 * True for an order a device keeps for offline work: not done, or changed in the last days, or opened on this device
 * in that time (`opened`, an ISO time the device knows of).
 */
export function keptForOfflineWork(
  order: Order & { lastModified?: string },
  now: Date,
  opened?: string,
  days = OFFLINE_DAYS,
): boolean {
  if (!isReadOnlyStatus(order.status as OrderStatus)) return true;
  const since = now.getTime() - days * 24 * 60 * 60 * 1000;
  return (
    Date.parse(order.lastModified ?? order.created) >= since || (opened !== undefined && Date.parse(opened) >= since)
  );
}
