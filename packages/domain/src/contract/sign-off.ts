import { z } from 'zod';
import { SIGN_OFF_MEANINGS } from '../orders/sign-off.ts';
import { orderStatusSchema } from './orders.ts';

export const signOffMeaningSchema = z.enum(SIGN_OFF_MEANINGS);

/**
 * POST orders/{id}/sign-off: the signer's password again, what they state, and the done status the order takes with
 * it (none when a done order is signed again, e.g. released to service after its quality check). `id` is made by the
 * browser: a resent sign-off (its answer was lost) answers the first one.
 */
export const signOffRequestSchema = z.object({
  id: z.uuid(),
  password: z.string().min(1).max(200),
  meaning: signOffMeaningSchema,
  status: z.enum(['DONE', 'DONE_ARCHIVED']).optional(),
});
export type SignOffRequest = z.infer<typeof signOffRequestSchema>;

/** A recorded sign-off. `supersededAt` is set when the order was reopened after it. */
export const signOffSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  /** The check code (16 characters of Crockford's base 32), printed on the release to service. */
  code: z.string(),
  signer: z.string(),
  role: z.string(),
  meaning: signOffMeaningSchema,
  /** The status the order took with the sign-off; null when it was done already. */
  status: orderStatusSchema.nullable(),
  signedAt: z.string(),
  /** SHA-256 (hex) of the signed content (packages/domain/src/orders/sign-off.ts `signedContentText`). */
  contentHash: z.string(),
  supersededAt: z.string().nullable(),
});
export type SignOff = z.infer<typeof signOffSchema>;

export const signOffListSchema = z.array(signOffSchema);

/** GET sign-offs/{code}: whether the order still holds what was signed, and if not, what changed. */
export const signOffCheckSchema = z.object({
  signOff: signOffSchema,
  orderNumber: z.string(),
  vehicleNumber: z.string(),
  orderType: z.enum(['WAGON', 'WHEELSET']),
  workshop: z.string(),
  /** MATCHES: the order holds what was signed; CHANGED: it does not; ORDER_DELETED: the order is gone. */
  state: z.enum(['MATCHES', 'CHANGED', 'ORDER_DELETED']),
  currentHash: z.string().nullable(),
  changes: z.array(z.object({ key: z.string(), signed: z.unknown(), now: z.unknown() })),
});
export type SignOffCheck = z.infer<typeof signOffCheckSchema>;
