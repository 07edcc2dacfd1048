import {
  type Role,
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
import type { FastifyRequest } from 'fastify';
import { claimValues, type SessionUser, signedInUser } from '../auth/session.ts';
import type { Db, Executor } from '../db/client.ts';
import { activities, orders } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { preparedStatement } from './prepared.ts';
import { type ActivityRow, asDomainActivity } from './protocol.ts';
import type { OrderRow } from '../orders/access.ts';
import { refreshKeeperVkm, touchesKeeperMarking } from '../orders/keeper-vkm.ts';

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
    // The holder's list reads the keeper's VKM from the order row: it follows the marking in the same transaction.
    if (fresh.some((item) => touchesKeeperMarking(item.key))) await refreshKeeperVkm(tx, order);
  }
  return items.map((item) => byId.get(item.id) as ActivityRow);
}

const activityColumns = Object.entries(getTableColumns(activities));

/** A row of `activities` as raw SQL answers it (column names, driver values), mapped as drizzle maps its own. */
export function toActivityRow(raw: Record<string, unknown>): ActivityRow {
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
 * The fast paths of pushes, outside any transaction: one statement, prepared once, that checks the token's user
 * (`signedInUser`: one round trip for the user and the push), raises the order's counter and inserts the activities
 * with it, and commits on its own. The `UPDATE` of the order row takes the row lock, so concurrent pushes to one
 * order queue there and each gets the next counters (after waiting, PostgreSQL checks the `WHERE` again on the row
 * the other push left); the lock is held only until this statement commits, and if the insert fails the raised
 * counter is rolled back with it, so counters stay dense. Nothing is written unless the user may push, the order
 * exists, is the user's workshop's, is not read-only, has a type whose field catalogue accepts every activity
 * (`checkActivity` is evaluated for every order type in advance; the statement only writes for the types it
 * accepted), and no activity with one of these ids is stored.
 *
 * A single push whose id is stored already in this order (a replay, the resend of a lost answer) is answered by the
 * same statement with the stored row (`fresh` false), which the caller compares (`refuseReusedId`).
 *
 * Anything else (the user refused, an unknown or foreign order, a read-only order, a catalogue problem, an id stored
 * for another order, a batch that repeats an id or holds a stored one, another push storing the same id at the same
 * moment, a change that can touch the keeper marking, whose VKM the order row keeps: orders/keeper-vkm.ts) answers
 * null: the caller then reads the user the usual way (401/403) and takes the locked path (`ownOrder(..., true)` +
 * `checkActivity` + `appendActivities`), which gives the exact answer, as it did before.
 */
export function pushStatements(db: Db, roles: readonly Role[] | undefined) {
  const p = (name: string) => sql.placeholder(name);
  const orderAccepts = sql`orders.id = ${p('orderId')}::uuid AND orders.workshop_id = me.workshop_id
    AND orders.type = ANY(${p('types')}::text[]) AND orders.status <> ALL(${p('readOnly')}::text[])`;
  const single = preparedStatement<RawPushRow>(
    db,
    'vers_push_one',
    sql`
    WITH me AS (${signedInUser(roles)}),
    bumped AS (
      UPDATE orders SET last_counter = orders.last_counter + 1, last_modified = ${p('now')}::timestamptz
      FROM me
      WHERE ${orderAccepts} AND NOT EXISTS (SELECT 1 FROM activities WHERE id = ${p('id')}::uuid)
      RETURNING orders.id, orders.last_counter, me.id AS author_id, me.modifier, me.author
    ),
    inserted AS (
      INSERT INTO activities
        (id, order_id, counter, key, type, output_value, created, last_modified, modifier, restores,
         seen, device, author_id, author)
      SELECT ${p('id')}::uuid, bumped.id, bumped.last_counter, ${p('key')}::text, ${p('type')}::text,
        ${p('value')}::text, ${p('created')}::timestamptz, ${p('now')}::timestamptz, bumped.modifier, NULL,
        ${p('seen')}::integer, ${p('device')}::uuid, bumped.author_id, bumped.author
      FROM bumped
      RETURNING *
    )
    SELECT inserted.*, true AS fresh, me.database, me.generation FROM inserted, me
    UNION ALL
    SELECT a.*, false AS fresh, me.database, me.generation
    FROM activities a JOIN orders ON orders.id = a.order_id, me
    WHERE a.id = ${p('id')}::uuid AND orders.id = ${p('orderId')}::uuid AND orders.workshop_id = me.workshop_id
      AND orders.type = ANY(${p('types')}::text[])`,
  );
  const batch = preparedStatement<RawPushRow>(
    db,
    'vers_push_batch',
    sql`
    WITH me AS (${signedInUser(roles)}),
    items AS (
      SELECT * FROM unnest(${p('ids')}::uuid[], ${p('keys')}::text[], ${p('kinds')}::text[], ${p('values')}::text[],
        ${p('created')}::timestamptz[], ${p('seen')}::integer[], ${p('devices')}::uuid[])
        WITH ORDINALITY AS i(id, key, type, output_value, created, seen, device, n)
    ),
    bumped AS (
      UPDATE orders SET last_counter = orders.last_counter + (SELECT count(*) FROM items)::integer,
        last_modified = ${p('now')}::timestamptz
      FROM me
      WHERE ${orderAccepts} AND NOT EXISTS (SELECT 1 FROM activities WHERE id IN (SELECT id FROM items))
      RETURNING orders.id, orders.last_counter, me.id AS author_id, me.modifier, me.author
    ),
    inserted AS (
      INSERT INTO activities
        (id, order_id, counter, key, type, output_value, created, last_modified, modifier, restores,
         seen, device, author_id, author)
      SELECT items.id, bumped.id, bumped.last_counter - (SELECT count(*) FROM items)::integer + items.n::integer,
        items.key, items.type, items.output_value, items.created, ${p('now')}::timestamptz, bumped.modifier, NULL,
        items.seen, items.device, bumped.author_id, bumped.author
      FROM bumped, items
      RETURNING *
    )
    SELECT inserted.*, true AS fresh, me.database, me.generation FROM inserted, me`,
  );
  const common = (request: FastifyRequest, orderId: string, types: readonly string[]) => ({
    ...claimValues(request),
    orderId,
    types,
    readOnly: READ_ONLY_ORDER_STATUSES,
    now: new Date().toISOString(),
  });
  const run = async (statement: () => Promise<RawPushRow[]>) => {
    try {
      return await statement();
    } catch (error) {
      if (isDuplicateActivityId(error)) return [];
      throw error;
    }
  };
  return {
    /** One push; null when the statement could not answer it (see above). */
    async one(request: FastifyRequest, orderId: string, item: NewActivity): Promise<PushAnswer | null> {
      // A change of the keeper marking also rewrites the order's keeper VKM: the locked path does both at once.
      if (touchesKeeperMarking(item.key)) return null;
      const types = ALL_ORDER_TYPES.filter((type) => !activityProblem(type, item.key, item.type, item.outputValue));
      if (types.length === 0) return null;
      const [raw] = await run(() =>
        single({
          ...common(request, orderId, types),
          id: item.id,
          key: item.key,
          type: item.type,
          value: item.outputValue,
          created: item.created.toISOString(),
          seen: item.seen === 'everything' ? null : (item.seen ?? null),
          device: item.device ?? null,
        }),
      );
      if (!raw) return null;
      return { rows: [toActivityRow(raw)], fresh: raw.fresh, identity: identityOf(raw) };
    },
    /** Several pushes of one order, new ids each (once); null when the statement could not answer them. */
    async batch(request: FastifyRequest, orderId: string, items: readonly NewActivity[]): Promise<PushAnswer | null> {
      if (items.length === 0 || new Set(items.map((item) => item.id)).size !== items.length) return null;
      if (items.some((item) => touchesKeeperMarking(item.key))) return null;
      const orderTypes = ALL_ORDER_TYPES.filter((type) =>
        items.every((item) => !activityProblem(type, item.key, item.type, item.outputValue)),
      );
      if (orderTypes.length === 0) return null;
      const raws = await run(() =>
        batch({
          ...common(request, orderId, orderTypes),
          ids: items.map((item) => item.id),
          keys: items.map((item) => item.key),
          kinds: items.map((item) => item.type),
          values: items.map((item) => item.outputValue),
          created: items.map((item) => item.created.toISOString()),
          seen: items.map((item) => (item.seen === 'everything' ? null : (item.seen ?? null))),
          devices: items.map((item) => item.device ?? null),
        }),
      );
      if (raws.length !== items.length) return null;
      const byId = new Map(raws.map((raw) => [String(raw.id), toActivityRow(raw)]));
      return { rows: items.map((item) => byId.get(item.id)!), fresh: true, identity: identityOf(raws[0]!) };
    },
  };
}

/** A row of a push statement: the activity's columns, whether it was stored now, and the database identity. */
type RawPushRow = Record<string, unknown> & { fresh: boolean; database: string | null; generation: number | null };

export interface PushAnswer {
  /** The activities, in the order pushed. */
  rows: ActivityRow[];
  /** Stored by this push; false for a single push's replay (the stored row, to compare). */
  fresh: boolean;
  identity: { database: string | null; generation: number | null };
}

const identityOf = (raw: RawPushRow) => ({
  database: raw.database,
  generation: raw.generation === null ? null : Number(raw.generation),
});

/** The order's values as every browser folds them (docs/requirements/sync.md#data-flow-pull). */
export async function orderValues(db: Executor, orderId: string): Promise<Values> {
  const rows = await db.select().from(activities).where(eq(activities.orderId, orderId));
  return foldActivities(rows.map(asDomainActivity)).values;
}
