import type { AuditAction } from '@vers/domain';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export interface AuditEntry {
  action: AuditAction;
  /** The workshop the entry concerns; null for none (a value list, an unknown username). */
  workshopId: number | null;
  /** What was changed: a username, an address, a list and value. */
  target: string;
  /** What changed, as { field: { from, to } } or a few plain facts; never a password. */
  details?: Record<string, unknown>;
  /** Who did it, when not the signed-in user (a sign-in attempt names the username tried). */
  actor?: { id: number | null; name: string };
}

/**
 * Appends one entry to the audit trail (docs/security.md#audit-trail), in the caller's transaction when it has one,
 * so that a change and its entry are written together or not at all.
 */
export async function audit(ex: Executor, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  const actor = entry.actor ?? { id: request.user?.id ?? null, name: request.user?.username ?? '' };
  await ex.insert(auditLog).values({
    actorId: actor.id,
    actor: actor.name,
    workshopId: entry.workshopId,
    action: entry.action,
    target: entry.target,
    details: entry.details ?? {},
    address: request.ip,
  });
}

/** `{ field: { from, to } }` for the fields of `after` whose value differs from `before`'s, compared as JSON. */
export function changes(before: object, after: object): Record<string, { from: unknown; to: unknown }> {
  const was = before as Record<string, unknown>;
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(was[key]) !== JSON.stringify(value)) out[key] = { from: was[key], to: value };
  }
  return out;
}
