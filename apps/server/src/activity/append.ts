import { type ActivityType, activityProblem, isReadOnlyStatus, type OrderStatus, type OrderType } from '@vers/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SessionUser } from '../auth/session.ts';
import type { Executor } from '../db/client.ts';
import { activities, orders, workshops } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { OrderRow } from '../orders/access.ts';

export type ActivityRow = typeof activities.$inferSelect;

export interface NewActivity {
  id: string;
  key: string;
  type: ActivityType;
  outputValue: string;
  created: Date;
  /** Only on activities the server appends to carry out a revert. */
  restores?: number;
}

export const toPushResult = (row: ActivityRow) => ({
  id: row.id,
  lm: row.lastModified.toISOString(),
  co: row.counter,
  mod: row.modifier,
});

export const toServerActivity = (row: ActivityRow) => ({
  id: row.id,
  oI: row.orderId,
  k: row.key,
  t: row.type,
  oV: row.outputValue,
  c: row.created.toISOString(),
  lm: row.lastModified.toISOString(),
  co: row.counter,
  re: row.reverted,
  mod: row.modifier,
  rs: row.restores,
});

/**
 * Refuses what the order's field catalogue does not hold: an unknown key, a value that does not fit its field's
 * kind. The key goes into `fields`, so the browser can name the field and its tab.
 */
export function checkActivity(
  order: Pick<OrderRow, 'type'>,
  activity: Pick<NewActivity, 'key' | 'outputValue' | 'type'>,
) {
  const problem = activityProblem(order.type as OrderType, activity.key, activity.type, activity.outputValue);
  if (problem) {
    throw new ApiError(400, 'INCOMPATIBLE_TYPE', `${activity.key}: ${problem}`, [activity.key]);
  }
}

/** The modifier written beside a change: the last name, when the workshop logs changes (protocol flag). */
export async function modifierFor(ex: Executor, user: SessionUser): Promise<string> {
  if (user.workshopId === null) return '';
  const [workshop] = await ex
    .select({ log: workshops.addLastModifier })
    .from(workshops)
    .where(eq(workshops.id, user.workshopId));
  return workshop?.log ? user.lastName : '';
}

/**
 * Appends activities to one order inside the caller's transaction, which must hold the order row locked
 * (`SELECT ... FOR UPDATE`): counters are the order's own, dense (1, 2, 3, ...), and two concurrent pushes
 * never get the same one. An activity whose id is already stored is not applied again; its first answer
 * is returned, so a retry after a lost answer is harmless.
 */
export async function appendActivities(
  tx: Executor,
  order: OrderRow,
  items: readonly NewActivity[],
  modifier: string,
  options: { allowReadOnly?: boolean } = {},
): Promise<ActivityRow[]> {
  const known = items.length
    ? await tx
        .select()
        .from(activities)
        .where(
          inArray(
            activities.id,
            items.map((i) => i.id),
          ),
        )
    : [];
  const byId = new Map(known.map((row) => [row.id, row]));
  for (const row of known) {
    if (row.orderId !== order.id) throw new ApiError(409, 'CONFLICT', `Activity ${row.id} belongs to another order`);
  }
  const fresh = items.filter((item, i) => !byId.has(item.id) && items.findIndex((x) => x.id === item.id) === i);
  if (fresh.length > 0 && isReadOnlyStatus(order.status as OrderStatus) && !options.allowReadOnly) {
    throw new ApiError(409, 'ORDER_READ_ONLY', `Order ${order.number} is done and can no longer be changed`);
  }
  let counter = order.lastCounter;
  const now = new Date();
  if (fresh.length > 0) {
    const inserted = await tx
      .insert(activities)
      .values(
        fresh.map((item) => ({
          id: item.id,
          orderId: order.id,
          counter: ++counter,
          key: item.key,
          type: item.type,
          outputValue: item.outputValue,
          created: item.created,
          lastModified: now,
          modifier,
          restores: item.restores ?? null,
        })),
      )
      .returning();
    for (const row of inserted) byId.set(row.id, row);
    await tx
      .update(orders)
      .set({ lastCounter: counter, lastModified: now })
      .where(and(eq(orders.id, order.id), eq(orders.lastCounter, order.lastCounter)));
    order.lastCounter = counter;
  }
  return items.map((item) => byId.get(item.id) as ActivityRow);
}

/** Locks the order row for the rest of the transaction (the per-order counter lives there). */
export async function lockOrder(tx: Executor, orderId: string) {
  await tx.execute(sql`SELECT 1 FROM orders WHERE id = ${orderId} FOR UPDATE`);
}
