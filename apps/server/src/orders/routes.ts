import {
  attributeValue,
  creationValues,
  ORDER_STATUSES,
  maySetStatus,
  needsSignOff,
  displayStatus,
  createOrderRequestSchema,
  errorBodySchema,
  orderSchema,
  statusChangeRequestSchema,
  activityPushResultSchema,
  mountedWheelsetSchema,
  wheelsetSwapRequestSchema,
  ASSET_TYPES,
  type AttributeValue,
  validateVehicleNumber,
  type Order,
  type OrderStatus,
  type OrderType,
  type ActivityPushResult,
} from '@vers/domain';
import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { sessionUser } from '../auth/session.ts';
import type { Db, Executor } from '../db/client.ts';
import { activities, assets, orderNumbers, orders } from '../db/schema.ts';
import { type StoredValidation, toImportValidation } from '../imports/validation.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import { noContent } from '../http/openapi.ts';
import { appendActivities, authorOf } from '../activity/append.ts';
import { toPushResult } from '../activity/protocol.ts';
import { type OrderRow, ownOrder } from './access.ts';
import { setOrderStatus } from './status-change.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { bury, TOMBSTONE_KINDS } from './tombstones.ts';
import { swapWheelset } from './wheelset-swap.ts';

const digits = (raw: string | undefined) => (raw ? validateVehicleNumber(raw) : null);
const plain = (raw: string | undefined) => {
  const result = digits(raw);
  return result?.ok ? result.digits : '';
};

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    number: row.number,
    externalOrderNumber: row.externalOrderNumber,
    maintenanceNumber: row.maintenanceNumber,
    contractor: row.contractor,
    type: row.type as OrderType,
    status: row.status as OrderStatus,
    created: row.created.toISOString(),
    importedDate: row.importedDate?.toISOString() ?? null,
    assetId: row.assetId,
    wagonNumber: row.type === 'WAGON' ? row.maintenanceNumber : null,
    wheelsetNumber: row.type === 'WHEELSET' ? row.maintenanceNumber : null,
    lastCounter: row.lastCounter,
  };
}

/** The next readable order number of a workshop: `2026-000042`, counted per year, without gaps. */
async function nextOrderNumber(tx: Executor, workshopId: number, now: Date): Promise<string> {
  const year = now.getUTCFullYear();
  const [row] = await tx
    .insert(orderNumbers)
    .values({ workshopId, year, last: 1 })
    .onConflictDoUpdate({
      target: [orderNumbers.workshopId, orderNumbers.year],
      set: { last: sql`${orderNumbers.last} + 1` },
    })
    .returning({ last: orderNumbers.last });
  return `${year}-${String(row?.last ?? 1).padStart(6, '0')}`;
}

/**
 * The incoming values of the XML templates an order is created from (docs/xml-format.md): the vehicle's template
 * gives its values; a wagon's wheelset rows' templates gave their numbers (in the request already). Every named
 * template must be a checked, valid import of the workshop for that order type; it is linked to the order.
 */
async function importedValues(
  tx: Executor,
  workshopId: number,
  body: z.infer<typeof createOrderRequestSchema>,
  orderId: string,
): Promise<{ key: string; value: AttributeValue['value'] }[]> {
  const wanted: { assetId: string; type: OrderType; path: string }[] = [];
  const vehicleAsset = body.wagon?.assetId ?? body.wheelset?.assetId;
  if (vehicleAsset) {
    wanted.push({
      assetId: vehicleAsset,
      type: body.type as OrderType,
      path: `body.${body.wagon ? 'wagon' : 'wheelset'}.assetId`,
    });
  }
  for (const [index, wheelset] of (body.wagon?.wheelsetsOutgoing ?? []).entries()) {
    if (wheelset.assetId) {
      wanted.push({
        assetId: wheelset.assetId,
        type: 'WHEELSET',
        path: `body.wagon.wheelsetsOutgoing.${index}.assetId`,
      });
    }
  }
  let values: { key: string; value: AttributeValue['value'] }[] = [];
  for (const { assetId, type, path } of wanted) {
    const refuse = (why: string) => new ApiError(400, 'VALIDATION', `Import ${assetId}: ${why}`, [path]);
    if (!z.uuid().safeParse(assetId).success) throw refuse('file not found');
    const [asset] = await tx.select().from(assets).where(eq(assets.id, assetId));
    if (!asset || asset.workshopId !== workshopId || asset.type !== ASSET_TYPES.IMPORT) throw refuse('file not found');
    const validation = toImportValidation(asset.id, asset.validation as StoredValidation | null, type);
    if (validation.validationStatus !== 'VALID') {
      throw refuse(validation.message ?? 'the file has not been checked yet');
    }
    const stored = asset.validation as Extract<StoredValidation, { validationStatus: 'VALID' }>;
    if (assetId === vehicleAsset) values = stored.values;
    if (asset.orderId === null) await tx.update(assets).set({ orderId }).where(eq(assets.id, asset.id));
  }
  return values;
}

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idParams = z.object({ id: z.uuid() });

export const orderRoutes =
  (db: Db, mails: MailOutbox): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orders',
      {
        schema: {
          tags: ['orders'],
          summary: "List the own workshop's orders",
          querystring: z.object({ orderNumber: z.string().max(50).optional() }),
          response: { 200: z.array(orderSchema), ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        if (user.workshopId === null) return [];
        const search = request.query.orderNumber?.replace(/[\s-]/g, '');
        const rows = await db
          .select()
          .from(orders)
          .where(
            and(
              eq(orders.workshopId, user.workshopId),
              search
                ? or(ilike(orders.maintenanceNumber, `%${search}%`), ilike(orders.number, `%${search}%`))
                : undefined,
            ),
          )
          .orderBy(desc(orders.created));
        return rows.map(toOrder);
      },
    );

    app.get(
      '/orders/:id',
      {
        schema: {
          tags: ['orders'],
          summary: 'Get an order',
          params: idParams,
          response: { 200: orderSchema, ...errors },
        },
      },
      async (request) => toOrder(await ownOrder(db, sessionUser(request), request.params.id)),
    );

    app.post(
      '/orders',
      {
        schema: {
          tags: ['orders'],
          summary: 'Create an order',
          description: 'Creates an order; a repeated call with the same id answers the order created first.',
          body: createOrderRequestSchema,
          response: { 200: orderSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        if (user.workshopId === null) throw forbidden('Only workshop users create orders');
        const workshopId = user.workshopId;
        const body = request.body;
        const id = body.id ?? randomUUID();
        const maintenanceNumber = plain(body.maintenanceNumber);
        const author = authorOf(user);
        return db.transaction(async (tx) => {
          const [existing] = await tx.select().from(orders).where(eq(orders.id, id));
          if (existing) {
            if (existing.workshopId !== workshopId) throw new ApiError(409, 'CONFLICT', 'Order id already used');
            return toOrder(existing);
          }
          const now = new Date();
          const number = body.number || (await nextOrderNumber(tx, workshopId, now));
          const [row] = await tx
            .insert(orders)
            .values({
              id,
              workshopId,
              type: body.type,
              number,
              externalOrderNumber: body.externalOrderNumber,
              maintenanceNumber,
              contractor: body.contractor,
              status: ORDER_STATUSES.CREATED,
              assetId: body.wagon?.assetId ?? body.wheelset?.assetId ?? null,
              // The transaction fails when the template is not a valid import, so this holds only with one.
              importedDate: (body.wagon?.assetId ?? body.wheelset?.assetId) ? now : null,
              createdBy: user.id,
              created: now,
            })
            .onConflictDoNothing()
            .returning();
          if (!row) throw new ApiError(409, 'CONFLICT', `Order number ${number} already exists`);
          // An imported template's values come first, so that the numbers typed on the add-order screen win.
          const imported = await importedValues(tx, workshopId, body, row.id);
          // The creation data goes into the order's log like any edit: its state is always the fold.
          const initial = [...imported, ...creationValues(body)].map(({ key, value }) => ({
            key,
            outputValue: JSON.stringify(attributeValue(value, now)),
          }));
          await appendActivities(
            tx,
            row,
            initial.map((a) => ({
              ...a,
              id: randomUUID(),
              created: now,
              type: 'XML_MODIFICATION' as const,
              seen: 'everything' as const,
              device: body.dv ?? null,
            })),
            author,
          );
          return toOrder(row);
        });
      },
    );

    app.delete(
      '/orders/:id',
      {
        schema: {
          tags: ['orders'],
          summary: 'Delete an order',
          params: idParams,
          response: { 204: noContent, ...errors },
        },
      },
      async (request, reply) => {
        const order = await ownOrder(db, sessionUser(request), request.params.id);
        await db.transaction(async (tx) => {
          await tx.delete(orders).where(eq(orders.id, order.id)); // activities and pictures go with it (cascade)
          await bury(tx, TOMBSTONE_KINDS.ORDER, order.id, order.workshopId);
        });
        return reply.status(204).send();
      },
    );

    app.patch(
      '/orders/:id',
      {
        schema: {
          tags: ['orders'],
          summary: "Mount, dismount or turn a wagon's wheelset",
          description:
            'The wheelset swap (docs/requirements/orders.md#wheelset-swap). `wheelset` mounts that wheelset at the ' +
            'position (a typed number, or with `assetId` a valid XML import of the wheelset, whose values the ' +
            'position takes as its outgoing values); `wheelset: null` dismounts; without `wheelset`, `direction` ' +
            "turns the wheelset mounted there. Recorded as ordinary changes (activities) of the position's outgoing " +
            'wheelset entry; a resend with the same `id` writes nothing again and answers the same wheelset. ' +
            'Refusals: 400 CHECK_NUMBER (check digit), 400 WHEELSET_POSITION (outside 1..8), 400 WHEELSET_ORDER ' +
            '(a wheelset order), 409 WHEELSET_MOUNTED_ELSEWHERE (the number is at another position of the wagon), ' +
            '409 WHEELSET_NOT_MOUNTED (a turn of an empty position), 409 ORDER_READ_ONLY (a done order), ' +
            '409 ACTIVITY_ID_REUSED (the id was used for another swap).',
          params: idParams,
          body: wheelsetSwapRequestSchema,
          response: { 200: mountedWheelsetSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        const author = authorOf(user);
        return db.transaction(async (tx) => {
          const order = await ownOrder(tx, user, request.params.id, true);
          return swapWheelset(tx, order, request.body, author);
        });
      },
    );

    app.post(
      '/orders/:id/status',
      {
        schema: {
          tags: ['orders'],
          summary: "Change an order's status",
          description:
            'Changes the status within the role rules; recorded as an ORDER_STATUS_MODIFICATION activity. DONE and ' +
            'DONE_ARCHIVED are set by a sign-off (POST orders/{id}/sign-off): 409 SIGN_OFF_REQUIRED here, unless the ' +
            'order has that status already. Reopening a done order marks its sign-offs superseded.',
          params: idParams,
          body: statusChangeRequestSchema.extend({ id: z.uuid().optional() }),
          response: { 200: activityPushResultSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        const target = request.body.status as OrderStatus;
        const author = authorOf(user);
        const { result, workshopId } = await db.transaction(async (tx) => {
          const order = await ownOrder(tx, user, request.params.id, true);
          const answer = (result: ActivityPushResult) => ({ result, workshopId: order.workshopId });
          // A resent status change (its answer was lost) answers its first result, before the rules: the
          // status it set may not allow the same change again.
          if (request.body.id) {
            const [sent] = await tx.select().from(activities).where(eq(activities.id, request.body.id));
            if (sent && sent.orderId === order.id) return answer(toPushResult(sent));
          }
          if (!maySetStatus(target, order.type as OrderType, user.roles)) {
            throw new ApiError(403, 'FORBIDDEN', `${order.status} -> ${target} is not allowed for this user`);
          }
          // The done statuses are stated by a signer who gives their password again (issue 21); a change waiting on
          // a device since before cannot make an order done.
          if (needsSignOff(target) && displayStatus(target) !== displayStatus(order.status as OrderStatus)) {
            throw new ApiError(409, 'SIGN_OFF_REQUIRED', `${target} is set by a sign-off: POST orders/{id}/sign-off`);
          }
          return answer(await setOrderStatus(tx, order, target, author, request.body.id ?? randomUUID()));
        });
        await mails.flush(workshopId);
        return result;
      },
    );
  };
