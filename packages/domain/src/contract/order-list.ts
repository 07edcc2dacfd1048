import { z } from 'zod';
import { MAX_ORDER_PAGE_SIZE, ORDER_SORTS, ORDER_STATUS_FILTERS } from '../orders/order-list.ts';
import { openLongerDaysSchema } from './dashboard.ts';
import { orderSchema } from './orders.ts';

/*
 * The calls of the order list at scale (docs/requirements/orders.md#order-list-at-scale); their rules are in
 * ../orders/order-list.ts, apart from these schemas so that the device's database (which needs the rules) does not
 * bring the schemas into every screen.
 */

/** An order as the list calls answer it: with the time it last changed and every wheelset number it ever held. */
export const listedOrderSchema = orderSchema.extend({
  lastModified: z.string(),
  /** Wheelset numbers recorded in the order (a wagon's wheelset rows); the search finds the order by them. */
  wheelsetNumbers: z.array(z.string()),
});
export type ListedOrder = z.infer<typeof listedOrderSchema>;

/** A page of the list (`GET orders/page`). */
export const orderPageQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_ORDER_PAGE_SIZE).default(25),
  sort: z.enum(ORDER_SORTS).default('created'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  status: z.enum(ORDER_STATUS_FILTERS).optional(),
  search: z.string().max(50).optional(),
  /** Only orders created more than this many days ago (the start page's "open longer than N days" with `open`). */
  olderThanDays: openLongerDaysSchema.optional(),
});
export type OrderPageQuery = z.infer<typeof orderPageQuerySchema>;

export const orderPageSchema = z.object({
  /** How many orders match, on every page. */
  total: z.number().int(),
  orders: z.array(listedOrderSchema),
});
export type OrderPage = z.infer<typeof orderPageSchema>;

/**
 * What changed in the workshop's order list since a device's cursor (`GET orders/changes`). Without a cursor, or with
 * one the server cannot continue from (another database, a restored backup), the answer is `full`: the orders a device
 * keeps for offline work, and the device drops the synced orders it was not sent and keeps no work of.
 */
export const orderChangesQuerySchema = z.object({
  /** The cursor of the device's last complete exchange. */
  cursor: z.string().max(100).optional(),
  /** The `next` of the previous page of this exchange. */
  page: z.string().max(200).optional(),
});

export const orderChangesSchema = z.object({
  full: z.boolean(),
  orders: z.array(listedOrderSchema),
  /** Orders deleted on purpose since the cursor (tombstones). */
  deleted: z.array(z.uuid()),
  /** True when another page follows: ask again with `page` = `next`. */
  more: z.boolean(),
  /** With `more`: the next page's token; without: the cursor to keep for the next exchange. */
  next: z.string(),
});
export type OrderChanges = z.infer<typeof orderChangesSchema>;
