import {
  ACTIVITY_TYPES,
  HOLDER_DOCUMENT_TYPES,
  type HolderDocument,
  type HolderDocumentType,
  type HolderOrder,
  type OrderStatus,
  ORDER_ROOTS,
  ORDER_TYPES,
  effectiveActivities,
  foldActivities,
  errorBodySchema,
  exportMediaType,
  holderDocumentRequestSchema,
  holderDocumentSchema,
  holderOrderDetailSchema,
  holderOrderPageQuerySchema,
  holderOrderPageSchema,
  isOrderStatus,
  parseOutputValue,
  valueOf,
} from '@vers/domain';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { asDomainActivity } from '../activity/protocol.ts';
import { attachment, fileBytesSchema } from '../assets/routes.ts';
import type { AssetStorage } from '../assets/storage.ts';
import { audit } from '../audit/audit.ts';
import { type SessionUser, sessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { activities, assets, keeperMarkings, orderSignOffs, orders, workshops } from '../db/schema.ts';
import { startDocuments } from '../documents/routes.ts';
import { notFound } from '../http/errors.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { OrderRow } from '../orders/access.ts';
import { searchCondition } from '../orders/list.ts';
import { toSignOff } from '../sign-off/records.ts';

/*
 * The holder portal's calls (issue 22): a holder user reads, across all workshops and read-only, the wagon orders whose
 * keeper VKM (`orders.keeper_vkm`, orders/keeper-vkm.ts) is one of its keeper's, and only what these calls show of
 * them. Every call names its scope in the query itself (`visibleTo`): an order, document or id outside it answers
 * 404, the same answer as an unknown id.
 */

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idParams = z.object({ id: z.uuid() });
const HOLDER_TYPES: readonly string[] = HOLDER_DOCUMENT_TYPES;

/** The orders a holder may see: wagon orders whose keeper VKM is one of the holder's keeper's (none without one). */
export function visibleTo(user: SessionUser): SQL {
  if (user.keeperId === null) return sql`false`;
  return and(
    eq(orders.type, ORDER_TYPES.WAGON),
    inArray(
      orders.keeperVkm,
      sql`(SELECT ${keeperMarkings.vkm} FROM ${keeperMarkings} WHERE ${keeperMarkings.keeperId} = ${user.keeperId})`,
    ),
  )!;
}

/** When the order's current release to service was signed: the newest sign-off of it no reopening superseded. */
const releasedAt = sql<Date | string | null>`(SELECT max(s.signed_at) FROM ${orderSignOffs} s
  WHERE s.order_id = ${orders.id} AND s.meaning = 'RELEASED_TO_SERVICE' AND s.superseded_at IS NULL)`;

const listColumns = {
  order: orders,
  workshopName: workshops.name,
  workshopCountry: workshops.countryCode,
  releasedAt,
};

type ListRow = { order: OrderRow; workshopName: string; workshopCountry: string; releasedAt: Date | string | null };

function toHolderOrder(row: ListRow): HolderOrder {
  const { order } = row;
  return {
    id: order.id,
    number: order.number,
    wagonNumber: order.maintenanceNumber === '' ? null : order.maintenanceNumber,
    keeperMarking: order.keeperMarking ?? '',
    status: order.status as OrderStatus,
    workshop: { name: row.workshopName, countryCode: row.workshopCountry },
    created: order.created.toISOString(),
    lastModified: order.lastModified.toISOString(),
    // A scalar subquery's time comes as the driver's text, not as a Date.
    releasedAt: row.releasedAt === null ? null : new Date(row.releasedAt).toISOString(),
  };
}

const toHolderDocument = (row: typeof assets.$inferSelect): HolderDocument => ({
  id: row.id,
  type: row.type as HolderDocumentType,
  status: row.status as HolderDocument['status'],
  filename: row.filename,
  created: row.created.toISOString(),
});

/** The outgoing values of an order as a holder reads them: no other side, no name of whoever changed them. */
function outgoingValues(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const root = `${ORDER_ROOTS.WAGON.out}.`;
  const out: Record<string, unknown> = {};
  for (const [key, stored] of Object.entries(values)) {
    if (!key.startsWith(root)) continue;
    if (stored !== null && typeof stored === 'object' && !Array.isArray(stored) && 'value' in stored) {
      // The protocol's LastModifier names a workshop user: left out.
      const { LastModifier: _author, ...rest } = stored as Record<string, unknown>;
      out[key] = rest;
    } else {
      out[key] = valueOf(stored);
    }
  }
  return out;
}

export const holderRoutes =
  (db: Db, deps: { storage: AssetStorage; jobs: Pick<JobQueue, 'send'> }): FastifyPluginAsyncZod =>
  async (app) => {
    /** An order the holder may see, with its workshop, or 404 (unknown, another keeper's, a wheelset order). */
    async function holderOrder(user: SessionUser, id: string): Promise<ListRow> {
      const [row] = await db
        .select(listColumns)
        .from(orders)
        .innerJoin(workshops, eq(workshops.id, orders.workshopId))
        .where(and(eq(orders.id, id), visibleTo(user)));
      if (!row) throw notFound('Order');
      return row;
    }

    app.get(
      '/holder/orders',
      {
        schema: {
          tags: ['holder'],
          summary: "List the keeper's wagon orders",
          description:
            "The wagon orders of every workshop whose keeper marking names one of the holder's keeper's VKMs, " +
            'newest first, a page at a time; `search` finds a part of the wagon number, the order number or a ' +
            'wheelset number, as the workshop list does.',
          querystring: holderOrderPageQuerySchema,
          response: { 200: holderOrderPageSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        const { offset, limit, search } = request.query;
        const where = and(visibleTo(user), searchCondition(search));
        const [rows, [total]] = await Promise.all([
          db
            .select(listColumns)
            .from(orders)
            .innerJoin(workshops, eq(workshops.id, orders.workshopId))
            .where(where)
            .orderBy(desc(orders.created), desc(orders.id))
            .offset(offset)
            .limit(limit),
          db.select({ n: count() }).from(orders).where(where),
        ]);
        return { total: total?.n ?? 0, orders: rows.map(toHolderOrder) };
      },
    );

    app.get(
      '/holder/orders/:id',
      {
        schema: {
          tags: ['holder'],
          summary: "Read a wagon order of the keeper's",
          description:
            'The order, its outgoing values (current value per key, reverted changes left out, no authors), its ' +
            'status history (status and time), its sign-offs and its release to service and keeper XML documents. ' +
            "404 for an order that is not the keeper's, a wheelset order or an unknown id alike.",
          params: idParams,
          response: { 200: holderOrderDetailSchema, ...errors },
        },
      },
      async (request) => {
        const row = await holderOrder(sessionUser(request), request.params.id);
        const orderId = row.order.id;
        const [activityRows, signOffRows, documentRows] = await Promise.all([
          db.select().from(activities).where(eq(activities.orderId, orderId)),
          db
            .select()
            .from(orderSignOffs)
            .where(eq(orderSignOffs.orderId, orderId))
            .orderBy(asc(orderSignOffs.signedAt)),
          db
            .select()
            .from(assets)
            .where(and(eq(assets.orderId, orderId), inArray(assets.type, [...HOLDER_TYPES])))
            .orderBy(desc(assets.created)),
        ]);
        const log = activityRows.map(asDomainActivity);
        // The order's values as every browser folds them; its status changes in the order they apply, with their time.
        const { values } = foldActivities(log);
        const statusHistory = effectiveActivities(log).flatMap((activity) => {
          if (activity.activityType !== ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) return [];
          const status = parseOutputValue(activity.outputValue);
          return isOrderStatus(status) ? [{ status, at: activity.created }] : [];
        });
        return {
          order: toHolderOrder(row),
          values: outgoingValues(values),
          statusHistory,
          signOffs: signOffRows.map(toSignOff),
          documents: documentRows.map(toHolderDocument),
        };
      },
    );

    app.post(
      '/holder/orders/:id/documents',
      {
        schema: {
          tags: ['holder'],
          summary: 'Ask for a release to service or keeper XML',
          description:
            "Starts a new document of the keeper's order, as the workshop's export does; answers it IN_GENERATION " +
            '(202). GET holder/orders/{id} shows it AVAILABLE when done; GET holder/documents/{id} gives the file. 409 ' +
            'RELEASE_NOT_SIGNED for a release to service of an order without a current sign-off "released to ' +
            'service". 404 as for GET holder/orders/{id}.',
          params: idParams,
          body: holderDocumentRequestSchema,
          response: { 202: holderDocumentSchema, ...errors },
        },
      },
      async (request, reply) => {
        const user = sessionUser(request);
        const { order } = await holderOrder(user, request.params.id);
        const { type, language } = request.body;
        const [row] = await startDocuments(db, deps.jobs, {
          order,
          user,
          types: [type],
          language,
          origin: `${request.protocol}://${request.host}`,
        });
        // The workshop's trail shows which holder asked for which document of its order.
        await audit(db, request, {
          action: 'holder.documentRequested',
          workshopId: order.workshopId,
          target: order.number,
          details: { type, language, document: row!.id },
        });
        return reply.status(202).send(toHolderDocument(row!));
      },
    );

    app.get(
      '/holder/documents/:id',
      {
        schema: {
          tags: ['holder'],
          summary: 'Download a release to service or keeper XML',
          description:
            "A generated release to service or keeper XML of one of the keeper's orders, as an attachment. Any other " +
            "file, another keeper's document, or one still in generation: 404.",
          params: idParams,
          response: {
            200: {
              description: 'The document (PDF or XML)',
              content: Object.fromEntries(
                [...new Set(HOLDER_DOCUMENT_TYPES.map((type) => exportMediaType(type).mime))].map((mime) => [
                  mime,
                  { schema: fileBytesSchema },
                ]),
              ),
            },
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const user = sessionUser(request);
        const [row] = await db
          .select({ asset: assets })
          .from(assets)
          .innerJoin(orders, eq(orders.id, assets.orderId))
          .where(and(eq(assets.id, request.params.id), inArray(assets.type, [...HOLDER_TYPES]), visibleTo(user)));
        if (!row) throw notFound('File');
        const bytes = await deps.storage.get(row.asset.id);
        if (bytes === null) throw notFound('File');
        return reply
          .type(row.asset.mime)
          .header('content-disposition', attachment(row.asset.filename))
          .header('x-content-type-options', 'nosniff')
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      },
    );
  };
