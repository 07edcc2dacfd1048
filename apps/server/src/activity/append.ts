import {
  foldActivities,
  type Values,
  ALL_ORDER_TYPES,
  type ActivityType,
  activityProblem,
  isReadOnlyStatus,
  type OrderStatus,
  type OrderType,
  READ_ONLY_ORDER_STATUSES,
} from '@vers/domain';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { SessionUser } from '../auth/session.ts';
import type { Db, Executor } from '../db/client.ts';
import { activities, orders } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { type ActivityRow, asDomainActivity } from './protocol.ts';
import type { OrderRow } from '../orders/access.ts';

export interface NewActivity {
  id: string;
  key: string;
  type: ActivityType;
  outputValue: string;
  created: Date;
  /** Only on activities the server appends to carry out a revert. */
  restores?: number;
  /**
   * What the author had seen of the field (the client's `sn`); `everything` for changes the server makes itself
   * (creation values, reverts), which are stored as having seen every counter before their own.
   */
  seen?: number | null | 'everything';
  /** The browser the change was made in (the client's `dv`). */
  device?: string | null;
}

/** Who sends changes: the protocol name written beside values, and the user's id and name for conflicts. */
export interface Author {
  /** The last name when the workshop keeps a protocol (docs/requirements/orders.md#protocol-flag), else empty. */
  modifier: string;
  id: number;
  name: string;
}

/**
 * The author of changes a user sends. The modifier is the last name, when the workshop logs changes (protocol flag,
 * read with the user on every request by the auth hook, so this needs no query of its own).
 */
export function authorOf(user: SessionUser): Author {
  return {
    modifier: user.logsChanges ? user.lastName : '',
    id: user.id,
    name: `${user.firstName} ${user.lastName}`.trim() || user.username,
  };
}

/**
 * A stored change and a push of the same id carry the same change: the same field, kind, value and time. A client
 * that sends one id with other content has a fault (or a forged id): it is refused, never answered with the first.
 */
type ChangeContent = { key: string; type: string; outputValue: string; created: Date };
function sameChange(a: ChangeContent, b: ChangeContent): boolean {
  return (
    a.key === b.key &&
    a.type === b.type &&
    a.outputValue === b.outputValue &&
    a.created.getTime() === b.created.getTime()
  );
}

export function refuseReusedId(row: ActivityRow, item: NewActivity): void {
  if (!sameChange(row, item)) {
    throw new ApiError(409, 'ACTIVITY_ID_REUSED', `Activity ${item.id} was stored with other content`, [item.id]);
  }
}

const seenColumn = (item: NewActivity, counter: number) =>
  item.seen === 'everything' ? counter - 1 : (item.seen ?? null);

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
  author: Author,
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
  for (const item of items) {
    const row = byId.get(item.id);
    if (row) refuseReusedId(row, item);
  }
  const firstOf = new Map<string, NewActivity>();
  for (const item of items) {
    const first = firstOf.get(item.id);
    if (!first) firstOf.set(item.id, item);
    else if (!sameChange(first, item)) {
      throw new ApiError(409, 'ACTIVITY_ID_REUSED', `Activity ${item.id} comes twice with other content`, [item.id]);
    }
  }
  const fresh = [...firstOf.values()].filter((item) => !byId.has(item.id));
  if (fresh.length > 0 && isReadOnlyStatus(order.status as OrderStatus) && !options.allowReadOnly) {
    throw new ApiError(409, 'ORDER_READ_ONLY', `Order ${order.number} is done and can no longer be changed`);
  }
  let counter = order.lastCounter;
  const now = new Date();
  if (fresh.length > 0) {
    const inserted = await tx
      .insert(activities)
      .values(
        fresh.map((item) => {
          counter += 1;
          return {
            id: item.id,
            orderId: order.id,
            counter,
            key: item.key,
            type: item.type,
            outputValue: item.outputValue,
            created: item.created,
            lastModified: now,
            modifier: author.modifier,
            restores: item.restores ?? null,
            seen: seenColumn(item, counter),
            device: item.device ?? null,
            authorId: author.id,
            author: author.name,
          };
        }),
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

const activityColumns = Object.entries(getTableColumns(activities));

/** A row of `activities` as raw SQL answers it (column names, driver values), mapped as drizzle maps its own. */
function toActivityRow(raw: Record<string, unknown>): ActivityRow {
  const row: Record<string, unknown> = {};
  for (const [field, column] of activityColumns) {
    const value = raw[column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as ActivityRow;
}

/** The unique violation of a second insert of the same activity id (PostgreSQL and PGlite alike). */
function isDuplicateActivityId(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const { code, constraint } = e as Error & { code?: unknown; constraint?: unknown };
    if (code === '23505') return constraint === 'activities_pkey';
  }
  return false;
}

/**
 * The fast path of a single push, outside any transaction. Usually one statement: it raises the order's counter
 * and inserts the activity with it, and commits on its own. The `UPDATE` of the order row takes the row lock, so
 * concurrent pushes to one order queue there and each gets the next counter (after waiting, PostgreSQL checks the
 * `WHERE` again on the row the other push left); the lock is held only until this statement commits, and if the
 * insert fails the raised counter is rolled back with it, so counters stay dense. Nothing is written unless the
 * order exists, is the user's workshop's, is not read-only, has a type whose field catalogue accepts the activity
 * (`checkActivity` is evaluated for every order type in advance; the statement only writes for the types it
 * accepted), and no activity with this id is stored.
 *
 * When that writes nothing, or another push stored the same id at the same moment (unique violation), a second
 * statement looks for the stored activity of this id in this order and answers it: a replay (its first answer)
 * or the loser of that race. Answers null when neither answers (unknown or foreign order, read-only order, a
 * catalogue problem, an id stored for another order); the caller then takes the locked path (`ownOrder(..., true)`
 * + `checkActivity` + `appendActivities`), which gives the exact error, as it did before.
 */
export async function appendOne(
  db: Db,
  user: SessionUser,
  orderId: string,
  item: NewActivity,
  author: Author,
): Promise<ActivityRow | null> {
  if (user.workshopId === null) return null;
  const types = ALL_ORDER_TYPES.filter((type) => !activityProblem(type, item.key, item.type, item.outputValue));
  if (types.length === 0) return null;
  const now = new Date().toISOString();
  const append = sql`
    WITH bumped AS (
      UPDATE orders SET last_counter = last_counter + 1, last_modified = ${now}::timestamptz
      WHERE id = ${orderId}::uuid AND workshop_id = ${user.workshopId}::integer
        AND type IN ${types} AND status NOT IN ${READ_ONLY_ORDER_STATUSES}
        AND NOT EXISTS (SELECT 1 FROM activities WHERE id = ${item.id}::uuid)
      RETURNING id, last_counter
    )
    INSERT INTO activities
      (id, order_id, counter, key, type, output_value, created, last_modified, modifier, restores,
       seen, device, author_id, author)
    SELECT ${item.id}::uuid, bumped.id, bumped.last_counter, ${item.key}::text, ${item.type}::text,
      ${item.outputValue}::text, ${item.created.toISOString()}::timestamptz, ${now}::timestamptz,
      ${author.modifier}::text, ${item.restores ?? null}::integer,
      ${item.seen === 'everything' ? sql`bumped.last_counter - 1` : sql`${item.seen ?? null}::integer`},
      ${item.device ?? null}::uuid, ${author.id}::integer, ${author.name}::text
    FROM bumped
    RETURNING *`;
  try {
    const [row] = ((await db.execute(append)) as unknown as { rows: Record<string, unknown>[] }).rows;
    if (row) return toActivityRow(row);
  } catch (error) {
    if (!isDuplicateActivityId(error)) throw error;
  }
  const [known] = await db
    .select({ activity: activities })
    .from(activities)
    .innerJoin(orders, eq(orders.id, activities.orderId))
    .where(
      and(
        eq(activities.id, item.id),
        eq(activities.orderId, orderId),
        eq(orders.workshopId, user.workshopId),
        inArray(orders.type, types),
      ),
    );
  if (known) refuseReusedId(known.activity, item);
  return known?.activity ?? null;
}

/** The order's values as every browser folds them (docs/requirements/sync.md#data-flow-pull). */
export async function orderValues(db: Executor, orderId: string): Promise<Values> {
  const rows = await db.select().from(activities).where(eq(activities.orderId, orderId));
  return foldActivities(rows.map(asDomainActivity)).values;
}
