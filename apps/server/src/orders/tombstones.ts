import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { tombstones } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';

export const TOMBSTONE_KINDS = { ORDER: 'ORDER', ASSET: 'ASSET' } as const;
export type TombstoneKind = (typeof TOMBSTONE_KINDS)[keyof typeof TOMBSTONE_KINDS];

/** Records a deletion on purpose, in the caller's transaction. */
export async function bury(ex: Executor, kind: TombstoneKind, id: string, workshopId: number): Promise<void> {
  await ex.insert(tombstones).values({ id, kind, workshopId }).onConflictDoNothing();
}

/**
 * The 404 for something of the user's workshop that is not there: `DELETED` when it was deleted on purpose, so a
 * device drops its copy; `NOT_FOUND` otherwise — for a device that holds it, the server lost it (a restored backup)
 * and it is sent again. Another workshop's ids are never confirmed either way.
 */
export async function missing(ex: Executor, what: string, id: string, workshopId: number | null): Promise<ApiError> {
  if (workshopId === null) return notFound(what);
  const [gone] = await ex
    .select({ id: tombstones.id })
    .from(tombstones)
    .where(and(eq(tombstones.id, id), eq(tombstones.workshopId, workshopId)));
  return gone ? new ApiError(404, 'DELETED', `${what} was deleted`) : notFound(what);
}
