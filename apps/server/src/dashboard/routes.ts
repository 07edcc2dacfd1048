import {
  ALL_ORDER_STATUSES,
  type Dashboard,
  READ_ONLY_ORDER_STATUSES,
  dashboardQuerySchema,
  dashboardSchema,
  errorBodySchema,
  openSince,
  turnaroundMonths,
} from '@vers/domain';
import { and, count, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { activities, orders } from '../db/schema.ts';

/** The status activities (orders/status-change.ts appends one with every change of an order's status). */
const statusChange = (table: { key: AnyPgColumn; type: AnyPgColumn; reverted: AnyPgColumn }) =>
  and(eq(table.key, '$.status'), eq(table.type, 'ORDER_STATUS_MODIFICATION'), eq(table.reverted, false));
const DONE_VALUES = READ_ONLY_ORDER_STATUSES.map((status) => JSON.stringify(status));

/**
 * The median turnaround per month: of every order of the workshop that is done now (DONE, archive requested,
 * archived), the time from its creation to when it last became done (the first status change to a done status after
 * its last change to a status not done; a reopened order counts from its new completion), counted in the month (UTC)
 * that change fell in.
 */
async function turnaround(db: Db, workshopId: number, now: Date): Promise<Dashboard['turnaround']> {
  const months = turnaroundMonths(now);
  const from = new Date(`${months[0]}-01T00:00:00Z`);
  const reopened = alias(activities, 'reopened');
  const lastNotDone = sql`coalesce((SELECT max(${reopened.counter}) FROM ${activities} AS "reopened"
    WHERE ${reopened.orderId} = ${orders.id} AND ${statusChange(reopened)}
    AND ${notInArray(reopened.outputValue, DONE_VALUES)}), 0)`;
  const doneAt = db
    .select({
      created: orders.created,
      doneAt: sql<Date>`min(${activities.created})`.as('done_at'),
    })
    .from(orders)
    .innerJoin(activities, eq(activities.orderId, orders.id))
    .where(
      and(
        eq(orders.workshopId, workshopId),
        inArray(orders.status, [...READ_ONLY_ORDER_STATUSES]),
        statusChange(activities),
        inArray(activities.outputValue, DONE_VALUES),
        sql`${activities.counter} > ${lastNotDone}`,
      ),
    )
    .groupBy(orders.id, orders.created)
    .as('done');
  const month = sql<string>`to_char(${doneAt.doneAt} AT TIME ZONE 'UTC', 'YYYY-MM')`;
  const rows = await db
    .select({
      month,
      orders: count(),
      // The median of the turnarounds in days; percentile_cont interpolates between the middle two of an even count.
      medianDays: sql<
        number | string
      >`percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ${doneAt.doneAt} - ${doneAt.created}) / 86400)`,
    })
    .from(doneAt)
    .where(sql`${doneAt.doneAt} >= ${from.toISOString()}::timestamptz`)
    .groupBy(month);
  const byMonth = new Map(rows.map((row) => [row.month, row]));
  return months.map((m) => {
    const row = byMonth.get(m);
    return {
      month: m,
      orders: row ? Number(row.orders) : 0,
      medianDays: row ? Math.max(0, Number(row.medianDays)) : null,
    };
  });
}

export async function dashboard(db: Db, workshopId: number, days: number, now = new Date()): Promise<Dashboard> {
  const counts = await db
    .select({ status: orders.status, count: count() })
    .from(orders)
    .where(eq(orders.workshopId, workshopId))
    .groupBy(orders.status);
  const countOf = new Map(counts.map((row) => [row.status, Number(row.count)]));
  const [open] = await db
    .select({ count: count() })
    .from(orders)
    .where(
      and(
        eq(orders.workshopId, workshopId),
        notInArray(orders.status, [...READ_ONLY_ORDER_STATUSES]),
        lt(orders.created, openSince(days, now)),
      ),
    );
  return {
    byStatus: ALL_ORDER_STATUSES.map((status) => ({ status, count: countOf.get(status) ?? 0 })),
    openLongerDays: days,
    openLongerCount: Number(open?.count ?? 0),
    turnaround: await turnaround(db, workshopId, now),
  };
}

const errors = { 400: errorBodySchema, 403: errorBodySchema };

export const dashboardRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/dashboard',
      {
        schema: {
          tags: ['orders'],
          summary: "The start page's figures of the own workshop's orders",
          description:
            'Counts by status, the count of orders not yet done created more than `days` days ago (default 14), and ' +
            'the median turnaround (created to the last change to DONE, in days) per month of the last 12 (UTC), ' +
            'of the orders done now.',
          querystring: dashboardQuerySchema,
          response: { 200: dashboardSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        // The rights admit only workshop roles; a user without a workshop would see no orders.
        if (user.workshopId === null) {
          return {
            byStatus: ALL_ORDER_STATUSES.map((status) => ({ status, count: 0 })),
            openLongerDays: request.query.days,
            openLongerCount: 0,
            turnaround: turnaroundMonths(new Date()).map((month) => ({ month, orders: 0, medianDays: null })),
          };
        }
        return dashboard(db, user.workshopId, request.query.days);
      },
    );
  };
