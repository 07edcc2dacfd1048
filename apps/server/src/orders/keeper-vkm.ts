import { foldActivities, isFilled, isSameOrBelow, keeperMarkingVkm, ORDER_ROOTS, valueOf } from '@vers/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client.ts';
import { activities, keeperVkmBackfill, orders } from '../db/schema.ts';
import { asDomainActivity } from '../activity/protocol.ts';

/*
 * The order's keeper VKM (`orders.keeper_vkm`), which the holder's list is filtered by (issue 22). It is the domain's
 * `keeperMarkingVkm` of the order's current keeper marking, outgoing side, or the incoming one while the outgoing is
 * empty (a wagon's marking is copied on arrival). Every write of activities goes through `appendActivities`
 * (activity/append.ts), which calls `refreshKeeperVkm` in its transaction when a change can touch the marking; the
 * one-statement push paths leave such changes to it.
 */

const MARKING_FIELD = 'Halterkurzkennzeichen';
const MARKING = {
  out: `${ORDER_ROOTS.WAGON.out}.${MARKING_FIELD}`,
  in: `${ORDER_ROOTS.WAGON.in}.${MARKING_FIELD}`,
} as const;

/** A path and every path above it (`$.Body.Wagen.x` → `$`, `$.Body`, `$.Body.Wagen`, `$.Body.Wagen.x`). */
function pathAndAbove(path: string): string[] {
  const parts = path.split('.');
  return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
}

/** The keys whose activities can change the marking's value: the two fields, and what a delete above them names. */
const MARKING_KEYS: readonly string[] = [...new Set([...pathAndAbove(MARKING.out), ...pathAndAbove(MARKING.in)])];

/** True when an activity of this key may change the order's keeper marking (a value, or a delete above it). */
export function touchesKeeperMarking(key: string): boolean {
  return isSameOrBelow(MARKING.out, key) || isSameOrBelow(MARKING.in, key);
}

/**
 * The keeper marking of an order's folded values (the outgoing one, else the incoming one; null when both are empty)
 * and the VKM it names (null when it names none).
 */
export function keeperOf(values: Readonly<Record<string, unknown>>): { marking: string | null; vkm: string | null } {
  const text = (key: string) => {
    const stored = values[key];
    if (!isFilled(stored)) return null;
    const value = valueOf(stored);
    return typeof value === 'string' ? value.trim() : null;
  };
  const marking = text(MARKING.out) ?? text(MARKING.in);
  return { marking, vkm: keeperMarkingVkm(marking) };
}

/**
 * Derives the order's keeper VKM from its stored activities and writes it when it changed. Runs in the caller's
 * transaction, which holds the order row locked (appendActivities, the backfill), so the column always follows the
 * activities that are committed with it.
 */
export async function refreshKeeperVkm(tx: Executor, order: { id: string; type: string }): Promise<string | null> {
  // A wheelset order has no keeper marking: it never reaches a holder.
  if (order.type !== 'WAGON') return null;
  // Only the activities that can touch the marking: the fold of those gives the marking's value as the whole fold.
  const rows = await tx
    .select()
    .from(activities)
    .where(and(eq(activities.orderId, order.id), inArray(activities.key, [...MARKING_KEYS])));
  const { marking, vkm } = keeperOf(foldActivities(rows.map(asDomainActivity)).values);
  await tx
    .update(orders)
    .set({ keeperVkm: vkm, keeperMarking: marking })
    .where(
      and(
        eq(orders.id, order.id),
        sql`(${orders.keeperVkm}, ${orders.keeperMarking}) IS DISTINCT FROM (${vkm}::text, ${marking}::text)`,
      ),
    );
  return vkm;
}

/**
 * Derives the keeper VKM of the orders migration 0014 listed (those that had a keeper marking before the column
 * existed), at start-up, in batches, each in a transaction with its orders locked as a push locks them. Instances
 * starting at once share the work (SKIP LOCKED); an interrupted start leaves the rest for the next.
 */
export async function backfillKeeperVkm(db: Db, batchSize = 200): Promise<number> {
  let done = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const pending = await tx
        .select({ orderId: keeperVkmBackfill.orderId })
        .from(keeperVkmBackfill)
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (pending.length === 0) return 0;
      const ids = pending.map((row) => row.orderId);
      const locked = await tx
        .select({ id: orders.id, type: orders.type })
        .from(orders)
        .where(inArray(orders.id, ids))
        .for('update');
      for (const order of locked) await refreshKeeperVkm(tx, order);
      await tx.delete(keeperVkmBackfill).where(inArray(keeperVkmBackfill.orderId, ids));
      return pending.length;
    });
    if (count === 0) return done;
    done += count;
  }
}
