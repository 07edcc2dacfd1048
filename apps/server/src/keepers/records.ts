import type { Keeper, SessionKeeper } from '@vers/domain';
import { asc, count, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { keeperMarkings, keepers, users } from '../db/schema.ts';

/** The keepers (all, or those of `ids`) with their VKMs in alphabetical order and how many users belong to each. */
export async function readKeepers(ex: Executor, ids?: readonly number[]): Promise<Keeper[]> {
  if (ids && ids.length === 0) return [];
  const rows = await ex
    .select()
    .from(keepers)
    .where(ids ? inArray(keepers.id, [...ids]) : undefined)
    .orderBy(asc(keepers.name), asc(keepers.id));
  if (rows.length === 0) return [];
  const keeperIds = rows.map((row) => row.id);
  const markings = await ex
    .select()
    .from(keeperMarkings)
    .where(inArray(keeperMarkings.keeperId, keeperIds))
    .orderBy(asc(keeperMarkings.vkm));
  const members = await ex
    .select({ keeperId: users.keeperId, n: count() })
    .from(users)
    .where(inArray(users.keeperId, keeperIds))
    .groupBy(users.keeperId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    markings: markings.filter((m) => m.keeperId === row.id).map((m) => m.vkm),
    users: members.find((m) => m.keeperId === row.id)?.n ?? 0,
  }));
}

/** A holder's keeper as the session keeps it; null without one. */
export async function sessionKeeper(ex: Executor, keeperId: number | null): Promise<SessionKeeper | null> {
  if (keeperId === null) return null;
  const [keeper] = await readKeepers(ex, [keeperId]);
  return keeper ? { id: keeper.id, name: keeper.name, markings: keeper.markings } : null;
}

/** The VKMs of a keeper (none for an unknown keeper or none given). */
export async function keeperVkms(ex: Executor, keeperId: number | null): Promise<string[]> {
  if (keeperId === null) return [];
  const rows = await ex
    .select({ vkm: keeperMarkings.vkm })
    .from(keeperMarkings)
    .where(eq(keeperMarkings.keeperId, keeperId));
  return rows.map((row) => row.vkm);
}
