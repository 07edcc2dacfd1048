import { z } from 'zod';
import { WHEELSET_DIRECTIONS } from '../catalogue/tabs.ts';

/*
 * The spec's PATCH orders/{id}: a wagon's wheelset at a position (docs/requirements/orders.md#wheelset-swap). The
 * position's range, the check digit and the date are judged by the domain's `wheelsetSwap` (orders/wheelset-swap.ts),
 * which answers the API's codes, so the browser's offline path refuses exactly what the server refuses.
 */

export const wheelsetDirectionSchema = z.enum(WHEELSET_DIRECTIONS);

export const wheelsetSwapRequestSchema = z.object({
  /** Made by the browser; the change's activity ids are derived from it, so a resend writes nothing twice. */
  id: z.uuid(),
  /** 1 to 8; outside: 400 WHEELSET_POSITION. */
  position: z.number().int(),
  /** Mount this wheelset (a number with a correct check digit; `assetId` a valid XML import of a wheelset); null
   * dismounts; absent turns (`direction` only). */
  wheelset: z
    .object({ assetId: z.string().max(100).nullish(), number: z.string().max(40) })
    .nullable()
    .optional(),
  /** Upper case; a mount without it mounts NORMAL. */
  direction: wheelsetDirectionSchema.optional(),
  /** `YYYY-MM-DD`, the outgoing mount date of a mount; the server's day (UTC) when absent. */
  mountDate: z.string().max(10).optional(),
});
export type WheelsetSwapBody = z.infer<typeof wheelsetSwapRequestSchema>;

export const mountedWheelsetSchema = z.object({
  position: z.number().int(),
  wheelset: z.object({ assetId: z.string().nullable(), number: z.string() }).nullable(),
  direction: wheelsetDirectionSchema.nullable(),
});
