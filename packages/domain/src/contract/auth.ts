import { z } from 'zod';
import { ALL_ROLES } from '../roles.ts';

export const roleSchema = z.enum(ALL_ROLES as [string, ...string[]]);

export const signInRequestSchema = z.object({
  userName: z.string().min(1).max(200),
  password: z.string().min(1).max(200),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** The workshop as the session keeps it (docs/requirements/administration.md#session). */
export const sessionWorkshopSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  countryCode: z.string(),
  siteId: z.string(),
  revNr: z.string(),
  addLastModifier: z.boolean(),
});
export type SessionWorkshop = z.infer<typeof sessionWorkshopSchema>;

/** The keeper of a holder user as the session keeps it (issue 22): its name and VKMs, for the holder's screens. */
export const sessionKeeperSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  markings: z.array(z.string()),
});
export type SessionKeeper = z.infer<typeof sessionKeeperSchema>;

export const signInResponseSchema = z.object({
  token: z.string(),
  /** ISO time when the token stops working. */
  expiresAt: z.string(),
  id: z.number().int(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roles: z.array(roleSchema),
  workshop: sessionWorkshopSchema.nullable(),
  /** A holder user's keeper; null for everybody else (absent in sessions kept from before issue 22). */
  keeper: sessionKeeperSchema.nullable().optional(),
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const siteIdResponseSchema = z.object({ siteId: z.string().nullable() });
export type SiteIdResponse = z.infer<typeof siteIdResponseSchema>;
