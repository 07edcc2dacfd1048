import { z } from 'zod';
import { ALL_ORDER_STATUSES, type OrderStatus } from '../orders/status.ts';

/*
 * The start page's dashboard (issue 23, part 2): the workshop's figures the server alone knows (every order, not only
 * those a device keeps), for the workshop roles. The device's own figures (its orders by status, its unsent changes)
 * come from IndexedDB and the sync status, online and offline.
 */

/** "Open longer than N days": N when the call does not say. Two weeks: a repair that long is worth a look. */
export const DEFAULT_OPEN_LONGER_DAYS = 14;
export const MAX_OPEN_LONGER_DAYS = 3650;
/** How many months back the median turnaround goes, the current month included. */
export const TURNAROUND_MONTHS = 12;

/**
 * `days` of GET dashboard and the order list's address and page call (`olderThanDays`): a whole number of days, 1 to
 * 3650.
 */
export const openLongerDaysSchema = z.coerce.number().int().min(1).max(MAX_OPEN_LONGER_DAYS);

/**
 * The orders created before this time are "open longer than `days` days" while not done: the rule of the server's
 * dashboard and list, and of the device's list offline.
 */
export function openSince(days: number, now: Date): Date {
  return new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
}

export const dashboardQuerySchema = z.object({
  days: openLongerDaysSchema.default(DEFAULT_OPEN_LONGER_DAYS),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** One month's median turnaround: created → the time the order last reached DONE, of the orders done that month. */
export const turnaroundMonthSchema = z.object({
  /** The month, `YYYY-MM` (UTC). */
  month: z.string().regex(/^\d{4}-\d{2}$/),
  /** Orders that reached DONE that month. */
  orders: z.number().int().nonnegative(),
  /** Their median turnaround in days (fractional); null in a month without one. */
  medianDays: z.number().nonnegative().nullable(),
});
export type TurnaroundMonth = z.infer<typeof turnaroundMonthSchema>;

export const dashboardSchema = z.object({
  /** Every status with its count of the workshop's orders (0 included), in the statuses' order. */
  byStatus: z.array(
    z.object({
      status: z.enum(ALL_ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]),
      count: z.number().int().nonnegative(),
    }),
  ),
  /** The N of `openLongerCount`. */
  openLongerDays: z.number().int(),
  /** Orders not yet done (the list's `open` filter) created more than N days ago. */
  openLongerCount: z.number().int().nonnegative(),
  /** The last TURNAROUND_MONTHS months, oldest first, the current month last. */
  turnaround: z.array(turnaroundMonthSchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** The months of the turnaround series ending with `now`'s month (UTC), oldest first, as `YYYY-MM`. */
export function turnaroundMonths(now: Date, months = TURNAROUND_MONTHS): string[] {
  const result: string[] = [];
  for (let back = months - 1; back >= 0; back--) {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    result.push(`${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return result;
}
