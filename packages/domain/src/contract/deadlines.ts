import { z } from 'zod';
import { isValidDateText } from '../dates.ts';
import { DEADLINE_WINDOWS } from '../orders/deadlines.ts';
import { orderTypeSchema } from './orders.ts';

/*
 * Issue 23: GET deadlines. The workshop's orders' deadlines (workshop roles), or a holder's keeper's wagon orders'
 * deadlines, computed on the server with the domain rule (../orders/deadlines.ts).
 */

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

export const deadlineQuerySchema = z.object({
  /** Due from today up to this many days ahead; absent: none ahead (with `overdue=true`: only the overdue ones). */
  within: z.coerce
    .number()
    .int()
    .refine((days) => (DEADLINE_WINDOWS as readonly number[]).includes(days), { message: 'within is 30, 60 or 90' })
    .optional(),
  /** Include the overdue deadlines; default true. */
  overdue: flag.default(true),
  /** The caller's local date (YYYY-MM-DD) the days are counted from; default the server's local date. */
  today: z.string().refine(isValidDateText, { message: 'today is a date YYYY-MM-DD' }).optional(),
});
export type DeadlineQuery = z.input<typeof deadlineQuerySchema>;

export const deadlineSchema = z.object({
  orderId: z.uuid(),
  orderType: orderTypeSchema,
  orderNumber: z.string(),
  vehicleNumber: z.string().nullable(),
  wheelset: z.object({ position: z.string(), number: z.string().nullable() }).optional(),
  entry: z.string().optional(),
  field: z.string(),
  labelKey: z.string(),
  side: z.enum(['in', 'out']),
  due: z.string(),
  daysLeft: z.number().int(),
});

export const deadlineListSchema = z.object({
  /** The date the days were counted from. */
  today: z.string(),
  deadlines: z.array(deadlineSchema),
});
export type DeadlineList = z.infer<typeof deadlineListSchema>;
