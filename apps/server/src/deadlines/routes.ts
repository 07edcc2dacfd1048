import {
  ACTIVITY_TYPES,
  ALL_ORDER_TYPES,
  type DeadlineList,
  ROLE_GROUPS,
  type Values,
  deadlineKeyPatterns,
  deadlineList,
  deadlineListSchema,
  deadlineQuerySchema,
  errorBodySchema,
  foldActivities,
  hasAnyRole,
  localDate,
} from '@vers/domain';
import { type SQL, and, eq, like, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asDomainActivity } from '../activity/protocol.ts';
import { type SessionUser, sessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { activities, orders } from '../db/schema.ts';
import { visibleTo } from '../holder/routes.ts';

/*
 * GET deadlines (issue 23): the due dates the catalogue marks (`deadline: true`), from the current values of the
 * workshop's orders or, for a holder, of the keeper's wagon orders. Only the rows that can give a deadline are read:
 * the deadline keys and the codes naming their entries (`deadlineKeyPatterns`), and every entry removal (an
 * XML_DELETE of a list entry removes the deadline below it). The domain rule folds and filters them, as the browser
 * does offline with the device's orders.
 */

const errors = { 400: errorBodySchema, 403: errorBodySchema };

/** The keys a deadline can come from, for every order type (each pattern starts with its type's root). */
const DEADLINE_KEYS: SQL = or(
  ...ALL_ORDER_TYPES.flatMap((type) => deadlineKeyPatterns(type)).map((pattern) => like(activities.key, pattern)),
)!;

/** The orders whose deadlines the user sees: the own workshop's, or a holder's keeper's wagon orders. */
function scopeOf(user: SessionUser): SQL {
  if (hasAnyRole(user.roles, ROLE_GROUPS.holder)) return visibleTo(user);
  if (user.workshopId === null) return sql`false`;
  return eq(orders.workshopId, user.workshopId);
}

export async function deadlinesOf(
  db: Db,
  user: SessionUser,
  query: { within?: number | undefined; overdue: boolean; today?: string | undefined },
): Promise<DeadlineList> {
  const today = query.today ?? localDate();
  const rows = await db
    .select({
      activity: activities,
      type: orders.type,
      number: orders.number,
      maintenanceNumber: orders.maintenanceNumber,
    })
    .from(activities)
    .innerJoin(orders, eq(orders.id, activities.orderId))
    .where(
      and(
        scopeOf(user),
        eq(activities.reverted, false),
        or(eq(activities.type, ACTIVITY_TYPES.XML_DELETE), DEADLINE_KEYS),
      ),
    );
  const byOrder = new Map<string, { order: (typeof rows)[number]; log: ReturnType<typeof asDomainActivity>[] }>();
  for (const row of rows) {
    const known = byOrder.get(row.activity.orderId);
    if (known) known.log.push(asDomainActivity(row.activity));
    else byOrder.set(row.activity.orderId, { order: row, log: [asDomainActivity(row.activity)] });
  }
  const sources = [...byOrder.entries()].map(([id, { order, log }]) => ({
    order: {
      id,
      type: order.type,
      number: order.number,
      wagonNumber: order.type === 'WAGON' ? order.maintenanceNumber : null,
      wheelsetNumber: order.type === 'WHEELSET' ? order.maintenanceNumber : null,
    },
    values: foldActivities(log).values as Values,
  }));
  const within = query.within === 30 || query.within === 60 || query.within === 90 ? query.within : null;
  return { today, deadlines: deadlineList(sources, { within, overdue: query.overdue }, today) };
}

export const deadlineRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/deadlines',
      {
        schema: {
          tags: ['orders'],
          summary: 'The deadline list',
          description:
            'The due dates the field catalogue marks as deadlines (the wagon revision deadline, the tank tests’ next ' +
            'due, the wheelset’s next due date), from the current values of the own workshop’s orders, or for a ' +
            'holder of the keeper’s wagon orders in every workshop: each with its order, vehicle number, field, due ' +
            'date and days left, most urgent first. `within` (30, 60 or 90) keeps those due from today up to so many ' +
            'days ahead, `overdue` (default true) adds the overdue ones; `today` (YYYY-MM-DD, the caller’s local ' +
            'date, default the server’s) is the day the days are counted from. The outgoing value counts, the ' +
            'incoming one while the outgoing side is empty; a month is due at its end.',
          querystring: deadlineQuerySchema,
          response: { 200: deadlineListSchema, ...errors },
        },
      },
      async (request) => deadlinesOf(db, sessionUser(request), request.query),
    );
  };
