import { z } from 'zod';
import { idParamSchema } from './admin.ts';

/** Every kind of audit entry (docs/security.md#audit-trail); the web app names each in the user's language. */
export const AUDIT_ACTIONS = [
  'user.created',
  'user.changed',
  'user.deleted',
  'user.passwordSet',
  'user.passwordChanged',
  'workshop.changed',
  'workshop.logoChanged',
  'emailAddress.added',
  'emailAddress.changed',
  'emailAddress.deleted',
  'valueList.valueAdded',
  'valueList.valueChanged',
  'valueList.valueDeleted',
  'signIn.failed',
  'signIn.throttled',
  'password.throttled',
  'order.signedOff',
  'signOff.throttled',
  'keeper.created',
  'keeper.changed',
  'keeper.deleted',
  /** A holder user asked for a new release to service or keeper XML of an order (issue 22). */
  'holder.documentRequested',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Entries per page of GET audit. */
export const AUDIT_PAGE_SIZE = 100;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  actor: z.string(),
  workshopId: z.number().int().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
  address: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = z.object({
  /** System admins: the workshop whose entries to list; without it, the entries about no workshop. */
  workshopId: idParamSchema.optional(),
  /** Paging: only entries older than this id. */
  before: idParamSchema.optional(),
});
