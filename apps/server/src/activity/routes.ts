import {
  ACTIVITY_TYPES,
  API_BASE,
  apiRight,
  type Role,
  activityBatchSchema,
  activityLastQuerySchema,
  activityLastSchema,
  activityPushResultSchema,
  activityPushSchema,
  conflictSchema,
  errorBodySchema,
  foldActivities,
  idParamSchema,
  MAX_DB_INTEGER,
  openConflicts,
  revertRequestSchema,
  SERVER_IDENTITY_HEADERS,
  serverActivitySchema,
} from '@vers/domain';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { claimValues, sessionUser, settledInStatement, settledUser, signedInUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { activities } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { ownOrder } from '../orders/access.ts';
import { appendActivities, authorOf, checkActivity, pushStatements, refuseReusedId } from './append.ts';
import { preparedStatement } from './prepared.ts';
import { asDomainActivity, toNew, toPushResult, toServerActivity } from './protocol.ts';
import { readIdentity, recordLoss } from './server-identity.ts';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const orderParams = z.object({ orderId: z.uuid() });
const counterParams = orderParams.extend({ counter: idParamSchema });

/** The roles the rights table gives a route (`undefined`: any signed-in user). */
function rolesOf(method: string, path: string): readonly Role[] | undefined {
  const right = apiRight(method, `${API_BASE}${path}`);
  if (!right) throw new Error(`${method} ${API_BASE}${path} has no entry in the rights table (packages/domain)`);
  return Array.isArray(right.access) ? right.access : undefined;
}

/** An ISO 8601 UTC time with milliseconds, as `Date.prototype.toISOString` writes it. */
const isoTime = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * A stored activity `a` as the columns of the wire's server activity (`toServerActivity` in ./protocol.ts: same
 * names, same order, same values), for the database to write as JSON. A pull of a long order (10,000 activities on
 * a first load) was mostly the driver decoding every column of every row, the mapping of the rows, the response
 * schema's check of each and their serialisation; the database answers the same JSON text in one column instead.
 */
const SERVER_ACTIVITY_COLUMNS = sql`a.id, a.order_id AS "oI", a.key AS k, a.type AS t, a.output_value AS "oV",
  ${isoTime('a.created')} AS c, ${isoTime('a.last_modified')} AS lm, a.counter AS co, a.reverted AS re,
  a.modifier AS mod, a.restores AS rs, a.seen AS sn, a.device AS dv, a.author_id AS ai, a.author AS au`;

/**
 * The calls every device makes in every exchange (docs/requirements/sync.md#scheduler): push, last counter, pull.
 * Each checks its user inside its own prepared statement (`userInStatement`, auth/session.ts): one round trip
 * answers the call. When a statement finds nothing, the user is read the usual way (401/403) and the call is
 * answered as every other route answers it.
 */
function exchangeStatements(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  const lastRoles = rolesOf('GET', '/activity/:orderId/last');
  const pullRoles = rolesOf('GET', '/activity/:orderId');
  return {
    push: pushStatements(db, rolesOf('POST', '/activity')),
    batch: pushStatements(db, rolesOf('POST', '/activity/batch')),
    last: preparedStatement<{
      last_counter: number;
      known_id: string | null;
      database: string | null;
      generation: number | null;
    }>(
      db,
      'vers_activity_last',
      sql`
      WITH me AS (${signedInUser(lastRoles)})
      SELECT o.last_counter, me.database, me.generation,
        (SELECT a.id FROM activities a WHERE a.order_id = o.id AND a.counter = ${p('known')}::integer) AS known_id
      FROM orders o, me
      WHERE o.id = ${p('orderId')}::uuid AND o.workshop_id = me.workshop_id`,
    ),
    // One row when the user may read the order, with the answer's JSON text (`[]` when nothing is new); none when
    // the statement cannot answer.
    pull: preparedStatement<{ body: string; database: string | null; generation: number | null }>(
      db,
      'vers_activity_pull',
      sql`
      WITH me AS (${signedInUser(pullRoles)}),
      o AS (SELECT orders.id FROM orders, me WHERE orders.id = ${p('orderId')}::uuid
        AND orders.workshop_id = me.workshop_id)
      SELECT me.database, me.generation,
        (SELECT '[' || coalesce(string_agg(row_to_json(w)::text, ',' ORDER BY w.co), '') || ']'
          FROM (SELECT ${SERVER_ACTIVITY_COLUMNS} FROM activities a
            WHERE a.order_id = o.id AND a.counter > ${p('after')}::integer) w) AS body
      FROM o CROSS JOIN me`,
    ),
  };
}

export const activityRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    const exchange = exchangeStatements(db);
    app.get(
      '/activity/:orderId',
      {
        config: { userInStatement: true },
        schema: {
          tags: ['activity'],
          summary: "List an order's changes",
          description: 'All activities of an order in counter order; `after` gives only those after a counter.',
          params: orderParams,
          querystring: z.object({ after: z.coerce.number().int().min(0).max(MAX_DB_INTEGER).optional() }),
          response: { 200: z.array(serverActivitySchema), ...errors },
        },
      },
      async (request, reply) => {
        const after = request.query.after;
        const found = await exchange.pull({
          ...claimValues(request),
          orderId: request.params.orderId,
          after: after ?? -1,
        });
        const [answer] = found;
        if (answer) {
          settledInStatement(request, reply, { database: answer.database, generation: answer.generation });
          // The database wrote the JSON (a string is sent as it is, past the serializer; the schema documents it).
          return reply.type('application/json; charset=utf-8').send(answer.body as never);
        }
        const order = await ownOrder(db, await settledUser(request), request.params.orderId);
        const rows = await db
          .select()
          .from(activities)
          .where(and(eq(activities.orderId, order.id), after === undefined ? undefined : gt(activities.counter, after)))
          .orderBy(asc(activities.counter));
        return rows.map(toServerActivity);
      },
    );

    app.get(
      '/activity/:orderId/last',
      {
        schema: {
          tags: ['activity'],
          summary: "Get an order's last counter",
          description:
            'The highest counter of the order, with the database identity and generation. A client that says what ' +
            'it holds (`known`, the id at that counter `knownId`, its `generation`) lets the server notice that it ' +
            'lost acknowledged changes (a restored backup): the generation is then raised, and every device re-sends ' +
            'what the server lacks.',
          params: orderParams,
          querystring: activityLastQuerySchema,
          response: { 200: activityLastSchema, ...errors },
        },
        config: { userInStatement: true },
      },
      async (request, reply) => {
        const { known, knownId, generation } = request.query;
        const [found] = await exchange.last({
          ...claimValues(request),
          orderId: request.params.orderId,
          known: known ?? 0,
        });
        if (found && found.database !== null && found.generation !== null) {
          settledInStatement(request, reply, found);
          const last = found.last_counter;
          let identity = { database: found.database, generation: found.generation };
          if (known !== undefined && known > 0) {
            const lost = known > last || (knownId !== undefined && found.known_id !== knownId);
            if (lost) identity = await recordLoss(db, generation ?? identity.generation);
          }
          reply.header(SERVER_IDENTITY_HEADERS.database, identity.database);
          reply.header(SERVER_IDENTITY_HEADERS.generation, String(identity.generation));
          return { last, ...identity };
        }
        const order = await ownOrder(db, await settledUser(request), request.params.orderId);
        let identity = await readIdentity(db);
        if (known !== undefined && known > 0) {
          const [atKnown] =
            known <= order.lastCounter
              ? await db
                  .select({ id: activities.id })
                  .from(activities)
                  .where(and(eq(activities.orderId, order.id), eq(activities.counter, known)))
              : [];
          const lost = known > order.lastCounter || (knownId !== undefined && atKnown?.id !== knownId);
          if (lost) identity = await recordLoss(db, generation ?? identity.generation);
        }
        reply.header(SERVER_IDENTITY_HEADERS.database, identity.database);
        reply.header(SERVER_IDENTITY_HEADERS.generation, String(identity.generation));
        return { last: order.lastCounter, ...identity };
      },
    );

    app.get(
      '/activity/:orderId/conflicts',
      {
        schema: {
          tags: ['activity'],
          summary: "List an order's open conflicts",
          description:
            'The open conflicts of the order: changes that replaced a value their author had not seen, until ' +
            'someone who saw both decides. Judged by the same domain rule the browser uses.',
          params: orderParams,
          response: { 200: z.array(conflictSchema), ...errors },
        },
      },
      async (request) => {
        const order = await ownOrder(db, sessionUser(request), request.params.orderId);
        const rows = await db.select().from(activities).where(eq(activities.orderId, order.id));
        return openConflicts(rows.map(asDomainActivity)).map((conflict) => ({
          k: conflict.key,
          replaced: { id: conflict.replaced.id, co: conflict.replaced.counter },
          by: { id: conflict.by.id, co: conflict.by.counter },
        }));
      },
    );

    app.get(
      '/activity/:orderId/:counter',
      {
        schema: {
          tags: ['activity'],
          summary: 'Get one change of an order',
          params: counterParams,
          response: { 200: serverActivitySchema, ...errors },
        },
      },
      async (request) => {
        const order = await ownOrder(db, sessionUser(request), request.params.orderId);
        const [row] = await db
          .select()
          .from(activities)
          .where(and(eq(activities.orderId, order.id), eq(activities.counter, request.params.counter)));
        if (!row) throw notFound('Activity');
        return toServerActivity(row);
      },
    );

    app.post(
      '/activity',
      {
        schema: {
          tags: ['activity'],
          summary: 'Append a change',
          description: 'Appends one change. A repeated id answers the first result and changes nothing.',
          body: activityPushSchema,
          response: { 200: activityPushResultSchema, ...errors },
        },
        config: { userInStatement: true },
      },
      async (request, reply) => {
        const item = toNew(request.body);
        // One statement answers almost every push, the user's check included; whatever it cannot answer exactly
        // (errors, a race on the same id) goes the locked way, which gives the exact answer.
        const appended = await exchange.push.one(request, request.body.oI, item);
        if (appended) {
          settledInStatement(request, reply, appended.identity);
          if (!appended.fresh) refuseReusedId(appended.rows[0]!, item);
          return toPushResult(appended.rows[0]!);
        }
        const user = await settledUser(request);
        const author = authorOf(user);
        return db.transaction(async (tx) => {
          const order = await ownOrder(tx, user, request.body.oI, true);
          checkActivity(order, item);
          const [row] = await appendActivities(tx, order, [item], author);
          return toPushResult(row!);
        });
      },
    );

    app.post(
      '/activity/batch',
      {
        schema: {
          tags: ['activity'],
          summary: 'Append several changes of an order',
          description: 'Appends many changes of one order in one transaction, in the order given.',
          body: activityBatchSchema,
          response: { 200: z.array(activityPushResultSchema), ...errors },
        },
        config: { userInStatement: true },
      },
      async (request, reply) => {
        const pushes = request.body.activities;
        const orderId = pushes[0]!.oI;
        if (pushes.some((p) => p.oI !== orderId)) {
          throw new ApiError(400, 'VALIDATION', 'A batch holds the activities of one order', ['activities']);
        }
        const items = pushes.map(toNew);
        const appended = await exchange.batch.batch(request, orderId, items);
        if (appended) {
          settledInStatement(request, reply, appended.identity);
          return appended.rows.map(toPushResult);
        }
        const user = await settledUser(request);
        const author = authorOf(user);
        return db.transaction(async (tx) => {
          const order = await ownOrder(tx, user, orderId, true);
          for (const item of items) checkActivity(order, item);
          return (await appendActivities(tx, order, items, author)).map(toPushResult);
        });
      },
    );

    app.patch(
      '/activity/:orderId/:counter/reverted',
      {
        schema: {
          tags: ['activity'],
          summary: 'Revert a change',
          description:
            'Reverts a change as if it had never been made: it is marked reverted and a new activity carries the ' +
            'value the remaining changes give, so every browser converges by pulling new counters. Reverting an ' +
            'activity the server appended for a revert brings the reverted change back (redo). Repeating a revert ' +
            'changes nothing. The body names the change meant by its id: when the counter holds another change ' +
            '(a restored backup gave it to someone else), the answer is 409 REVERT_TARGET_MOVED and nothing changes.',
          params: counterParams,
          body: revertRequestSchema.nullish(),
          response: { 200: activityPushResultSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        const author = authorOf(user);
        const meant = request.body?.id;
        return db.transaction(async (tx) => {
          const order = await ownOrder(tx, user, request.params.orderId, true);
          const all = await tx.select().from(activities).where(eq(activities.orderId, order.id));
          const target = all.find((row) => row.counter === request.params.counter);
          if (meant !== undefined && target?.id !== meant) {
            if (!target && !all.some((row) => row.id === meant)) throw notFound('Activity');
            throw new ApiError(
              409,
              'REVERT_TARGET_MOVED',
              `Counter ${request.params.counter} does not hold activity ${meant}; read the order's activities again`,
              [meant],
            );
          }
          if (!target) throw notFound('Activity');
          if (target.type === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) {
            throw new ApiError(400, 'VALIDATION', 'A status change is changed by another status change');
          }
          if (target.reverted) {
            const done = all.find((row) => row.restores === target.counter);
            return toPushResult(done ?? target);
          }
          target.reverted = true;
          await tx.update(activities).set({ reverted: true }).where(eq(activities.id, target.id));
          const original = target.restores === null ? null : all.find((row) => row.counter === target.restores);
          if (original) {
            original.reverted = false; // redo: the change the reverted revert had undone counts again
            await tx.update(activities).set({ reverted: false }).where(eq(activities.id, original.id));
          }
          // The order's value is the fold of the changes users made that stand; derived activities only carry it.
          const standing = all.filter((row) => row.restores === null && !row.reverted).map(asDomainActivity);
          const restored = foldActivities(standing).values[target.key];
          const [row] = await appendActivities(
            tx,
            order,
            [
              {
                id: randomUUID(),
                key: target.key,
                type: restored === undefined ? ACTIVITY_TYPES.XML_DELETE : ACTIVITY_TYPES.XML_MODIFICATION,
                outputValue: JSON.stringify(restored ?? null),
                created: new Date(),
                restores: target.counter,
                seen: 'everything',
              },
            ],
            author,
          );
          return toPushResult(row!);
        });
      },
    );
  };
