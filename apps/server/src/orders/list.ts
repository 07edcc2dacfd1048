import {
  type ListedOrder,
  type OrderChanges,
  type OrderPage,
  type OrderPageQuery,
  OFFLINE_DAYS,
  READ_ONLY_ORDER_STATUSES,
  ALL_ORDER_STATUSES,
  errorBodySchema,
  orderChangesQuerySchema,
  orderChangesSchema,
  orderPageQuerySchema,
  orderPageSchema,
  openSince,
  orderSearchNeedle,
  statusesOf,
} from '@vers/domain';
import {
  type SQL,
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  lt,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionUser } from '../auth/session.ts';
import type { Db, Executor } from '../db/client.ts';
import { orders, serverIdentity, tombstones } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { toOrder } from './routes.ts';
import { TOMBSTONE_KINDS } from './tombstones.ts';

/*
 * The order list of a workshop with thousands of orders (docs/requirements/orders.md#order-list-at-scale): a page of
 * it, sorted, filtered and searched here (`GET orders/page`), and what a device keeps for offline work, kept up to
 * date by what changed since its cursor (`GET orders/changes`). The sort and the search follow the domain's rules
 * (packages/domain/src/orders/order-list.ts), which the device applies to the orders it keeps.
 */

/** Orders per page of `GET orders/changes`: about 200 KB of JSON. */
export const CHANGES_PAGE_SIZE = 500;

const wheelsetNumbers = sql<string[]>`array(SELECT n.number FROM order_search_numbers n
  WHERE n.order_id = ${orders.id} AND n.kind = 'WHEELSET' ORDER BY n.number)`.as('wheelset_numbers');
const listedColumns = { ...getTableColumns(orders), wheelsetNumbers };
type ListedRow = typeof orders.$inferSelect & { wheelsetNumbers: string[] };

function toListedOrder(row: ListedRow): ListedOrder {
  return { ...toOrder(row), lastModified: row.lastModified.toISOString(), wheelsetNumbers: row.wheelsetNumbers };
}

/** A LIKE pattern that finds the text anywhere, with LIKE's own characters taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The search of the domain's `matchesOrderSearch`: a part of the wagon or wheelset number, of the order number, or of
 * a wheelset number the order holds, answered by the trigram index of `order_search_numbers` (migration 0012).
 */
export function searchCondition(search: string | undefined): SQL | undefined {
  const needle = orderSearchNeedle(search ?? '');
  if (needle === '') return undefined;
  return sql`${orders.id} IN (SELECT n.order_id FROM order_search_numbers n WHERE n.number LIKE ${containing(needle)})`;
}

/** The SQL of the domain's `compareOrders`: the column (nulls last), then newest first, then by id. */
function orderBy(sort: OrderPageQuery['sort'], direction: OrderPageQuery['direction']): SQL[] {
  const text = (column: SQL) => sql`${column} COLLATE "C"`;
  const column: SQL =
    sort === 'status'
      ? sql`array_position(ARRAY[${sql.join(
          ALL_ORDER_STATUSES.map((status) => sql`${status}`),
          sql`, `,
        )}]::text[], ${orders.status})`
      : sort === 'importedDate'
        ? sql`${orders.importedDate}`
        : sort === 'created'
          ? sql`${orders.created}`
          : text(sql`${orders[sort]}`);
  const primary = sql`${column} ${direction === 'asc' ? sql`ASC` : sql`DESC`} NULLS LAST`;
  return [primary, desc(orders.created), asc(orders.id)];
}

export async function orderPage(db: Db, workshopId: number, query: OrderPageQuery): Promise<OrderPage> {
  const where = and(
    eq(orders.workshopId, workshopId),
    query.status ? inArray(orders.status, [...statusesOf(query.status)]) : undefined,
    searchCondition(query.search),
    query.olderThanDays ? lt(orders.created, openSince(query.olderThanDays, new Date())) : undefined,
  );
  const [total] = await db.select({ total: count() }).from(orders).where(where);
  const rows = await db
    .select(listedColumns)
    .from(orders)
    .where(where)
    .orderBy(...orderBy(query.sort, query.direction))
    .limit(query.limit)
    .offset(query.offset);
  return { total: total?.total ?? 0, orders: rows.map(toListedOrder) };
}

/**
 * Where an exchange of `GET orders/changes` stands. `since`: the cursor it continues from (null: a full exchange);
 * `xmin`: the oldest transaction still running when it began, which becomes the next cursor (a change committed later
 * by a transaction that was running then is sent again next time, never missed); `after`: the last order sent.
 */
interface ChangesPosition {
  database: string;
  generation: number;
  since: bigint | null;
  xmin: bigint;
  after: { tx: bigint; id: string } | null;
}

const TX = /^\d{1,20}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A cursor is `database.generation.xmin`: where a device's last complete exchange ended. */
function parseCursor(cursor: string): { database: string; generation: number; xmin: bigint } | null {
  const [database, generation, xmin, ...rest] = cursor.split('.');
  if (rest.length > 0 || !database || !UUID.test(database) || !generation || !/^\d{1,9}$/.test(generation)) return null;
  if (!xmin || !TX.test(xmin)) return null;
  return { database, generation: Number(generation), xmin: BigInt(xmin) };
}

const cursorOf = (p: Pick<ChangesPosition, 'database' | 'generation' | 'xmin'>) =>
  `${p.database}.${p.generation}.${p.xmin}`;

/** A page token is `cursor.since.afterTx.afterId`, `since` being `-` in a full exchange. */
function parsePage(page: string): ChangesPosition {
  const parts = page.split('.');
  const refuse = () => new ApiError(400, 'VALIDATION', 'Not a page of this list', ['querystring.page']);
  if (parts.length !== 6) throw refuse();
  const [database, generation, xmin, since, afterTx, afterId] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const cursor = parseCursor(`${database}.${generation}.${xmin}`);
  if (!cursor || !(since === '-' || TX.test(since)) || !TX.test(afterTx) || !UUID.test(afterId)) throw refuse();
  return { ...cursor, since: since === '-' ? null : BigInt(since), after: { tx: BigInt(afterTx), id: afterId } };
}

const pageOf = (p: ChangesPosition & { after: { tx: bigint; id: string } }) =>
  `${cursorOf(p)}.${p.since ?? '-'}.${p.after.tx}.${p.after.id}`;

/**
 * One page of what changed in the workshop's orders since a cursor, in one snapshot (a read-only repeatable-read
 * transaction). Sorted by the writing transaction and id, so that a page continues where the previous one ended; an
 * order changed between two pages moves behind and comes again, or with the next exchange.
 */
export async function orderChanges(
  db: Db,
  workshopId: number,
  query: { cursor?: string | undefined; page?: string | undefined },
  pageSize = CHANGES_PAGE_SIZE,
): Promise<OrderChanges> {
  return db.transaction(
    async (tx) => {
      const [snapshot] = await tx
        .select({
          database: serverIdentity.id,
          generation: serverIdentity.generation,
          xmin: sql<string>`pg_snapshot_xmin(pg_current_snapshot())::text`,
          xmax: sql<string>`pg_snapshot_xmax(pg_current_snapshot())::text`,
        })
        .from(serverIdentity);
      if (!snapshot) throw new Error('server_identity has no row: the migrations did not run');
      const here = { database: snapshot.database, generation: snapshot.generation };
      const position = startingPosition(query, here, BigInt(snapshot.xmin), BigInt(snapshot.xmax));
      const rows = await changedOrders(tx, workshopId, position, pageSize + 1);
      const more = rows.length > pageSize;
      const sent = rows.slice(0, pageSize);
      const last = sent.at(-1);
      if (more && last) {
        const next = pageOf({ ...position, after: { tx: last.changedTx, id: last.id } });
        return { full: position.since === null, orders: sent.map(toListedOrder), deleted: [], more, next };
      }
      // The last page: with it the deletions since the cursor, read in the same snapshot.
      const deleted =
        position.since === null
          ? []
          : await tx
              .select({ id: tombstones.id })
              .from(tombstones)
              .where(
                and(
                  eq(tombstones.workshopId, workshopId),
                  eq(tombstones.kind, TOMBSTONE_KINDS.ORDER),
                  gte(tombstones.changedTx, position.since),
                ),
              );
      return {
        full: position.since === null,
        orders: sent.map(toListedOrder),
        deleted: deleted.map((row) => row.id),
        more: false,
        next: cursorOf(position),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * Where this request's page begins. A cursor of another database or generation (a restored backup raised it), or one
 * ahead of every transaction here (a backup restored before the generation was raised), starts a full exchange;
 * so does no cursor at all. A page token continues its exchange, unless the database changed under it.
 */
function startingPosition(
  query: { cursor?: string | undefined; page?: string | undefined },
  here: { database: string; generation: number },
  xmin: bigint,
  xmax: bigint,
): ChangesPosition {
  const fresh = (since: bigint | null): ChangesPosition => ({ ...here, since, xmin, after: null });
  const sameDatabase = (p: { database: string; generation: number; xmin: bigint }) =>
    p.database === here.database && p.generation === here.generation && p.xmin <= xmax;
  if (query.page) {
    const position = parsePage(query.page);
    if (!sameDatabase(position)) return fresh(null);
    return position;
  }
  const cursor = query.cursor ? parseCursor(query.cursor) : null;
  return cursor && sameDatabase(cursor) ? fresh(cursor.xmin) : fresh(null);
}

/** The orders of a page: changed since the cursor, or, in a full exchange, those a device keeps for offline work. */
async function changedOrders(
  tx: Executor,
  workshopId: number,
  position: ChangesPosition,
  limit: number,
): Promise<ListedRow[]> {
  const kept = or(
    notInArray(orders.status, [...READ_ONLY_ORDER_STATUSES]),
    sql`${orders.lastModified} >= now() - make_interval(days => ${OFFLINE_DAYS})`,
  );
  const after = position.after
    ? or(
        gt(orders.changedTx, position.after.tx),
        and(eq(orders.changedTx, position.after.tx), gt(orders.id, position.after.id)),
      )
    : undefined;
  return tx
    .select(listedColumns)
    .from(orders)
    .where(
      and(
        eq(orders.workshopId, workshopId),
        position.since === null ? kept : gte(orders.changedTx, position.since),
        after,
      ),
    )
    .orderBy(asc(orders.changedTx), asc(orders.id))
    .limit(limit);
}

const errors = { 400: errorBodySchema, 403: errorBodySchema };

export const orderListRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orders/page',
      {
        schema: {
          tags: ['orders'],
          summary: "A page of the own workshop's orders",
          description:
            'Sorted by a column (`sort`, `direction`), filtered by status (`open`, `done` or one status) and searched ' +
            'by a part of a wagon, wheelset or order number, wheelsets inside wagon orders included; `total` counts ' +
            'every match. The spec’s `GET orders` answers the whole list as before.',
          querystring: orderPageQuerySchema,
          response: { 200: orderPageSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        if (user.workshopId === null) return { total: 0, orders: [] };
        return orderPage(db, user.workshopId, request.query);
      },
    );

    app.get(
      '/orders/changes',
      {
        schema: {
          tags: ['orders'],
          summary: "What changed in the own workshop's orders since a cursor",
          description:
            'Without a cursor (or with one of another database or generation) the answer is `full`: the orders a ' +
            `device keeps for offline work (not done, or changed in the last ${OFFLINE_DAYS} days). With a cursor: ` +
            'the orders changed since, and the ids of those deleted since. Page by page: while `more`, ask again with ' +
            '`page` = `next`; the last page’s `next` is the cursor for the next exchange.',
          querystring: orderChangesQuerySchema,
          response: { 200: orderChangesSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        if (user.workshopId === null) return { full: true, orders: [], deleted: [], more: false, next: '' };
        return orderChanges(db, user.workshopId, request.query);
      },
    );
  };
