import {
  EMAIL_ADDRESSES_MAX,
  EMAIL_ADDRESSES_MIN,
  emailAddressRequestSchema,
  emailAddressSchema,
  errorBodySchema,
  idParamSchema,
  type Language,
} from '@vers/domain';
import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionUser } from '../auth/session.ts';
import { reaches, workshopInScope } from '../auth/tenancy.ts';
import type { Db, Executor } from '../db/client.ts';
import { lockSubject } from '../db/locks.ts';
import { audit, changes } from '../audit/audit.ts';
import { emailAddresses } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { noContent } from '../http/openapi.ts';

type Row = typeof emailAddresses.$inferSelect;
const toEmailAddress = (row: Row) => ({ id: row.id, address: row.address, languageCode: row.languageCode as Language });

const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idParams = z.object({ id: idParamSchema });
const workshopQuery = z.object({ workshopId: idParamSchema.optional() });

/**
 * Notification e-mail addresses of a workshop (docs/requirements/administration.md#email-calls): at least 1, at most
 * 10, no duplicates (compared without case). Workshop admins act on their own workshop; system admins name one by
 * `workshopId`.
 */
export const emailAddressRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    function scopedWorkshop(request: Parameters<typeof sessionUser>[0], requested: number | undefined): number {
      const workshopId = workshopInScope(sessionUser(request), requested);
      if (workshopId === null) throw notFound('Workshop');
      return workshopId;
    }

    async function reachable(request: Parameters<typeof sessionUser>[0], id: number): Promise<Row> {
      const [row] = await db.select().from(emailAddresses).where(eq(emailAddresses.id, id));
      if (!row || !reaches(sessionUser(request), row.workshopId)) throw notFound('E-mail address');
      return row;
    }

    async function refuseDuplicate(ex: Executor, workshopId: number, address: string, exceptId?: number) {
      const [clash] = await ex
        .select({ id: emailAddresses.id })
        .from(emailAddresses)
        .where(
          and(
            eq(emailAddresses.workshopId, workshopId),
            eq(sql`lower(${emailAddresses.address})`, address.toLowerCase()),
            exceptId === undefined ? undefined : ne(emailAddresses.id, exceptId),
          ),
        );
      if (clash) throw new ApiError(409, 'EMAIL_EXISTS', `${address} is already on the list`);
    }

    app.get(
      '/emailAddress',
      {
        schema: {
          tags: ['email addresses'],
          summary: "List a workshop's e-mail addresses",
          querystring: workshopQuery,
          response: { 200: z.array(emailAddressSchema), ...errors },
        },
      },
      async (request) => {
        const workshopId = scopedWorkshop(request, request.query.workshopId);
        const rows = await db
          .select()
          .from(emailAddresses)
          .where(eq(emailAddresses.workshopId, workshopId))
          .orderBy(emailAddresses.id);
        return rows.map(toEmailAddress);
      },
    );

    app.post(
      '/emailAddress',
      {
        schema: {
          tags: ['email addresses'],
          summary: 'Add an e-mail address',
          querystring: workshopQuery,
          body: emailAddressRequestSchema,
          response: { 201: emailAddressSchema, ...errors },
        },
      },
      async (request, reply) => {
        const workshopId = scopedWorkshop(request, request.query.workshopId);
        const row = await db.transaction(async (tx) => {
          // One writer at a time per workshop, so two simultaneous adds cannot make an 11th address.
          await lockSubject(tx, `email-addresses:${workshopId}`);
          const [existing] = await tx
            .select({ n: count() })
            .from(emailAddresses)
            .where(eq(emailAddresses.workshopId, workshopId));
          if ((existing?.n ?? 0) >= EMAIL_ADDRESSES_MAX) {
            throw new ApiError(409, 'EMAIL_LIMIT_MAX', `A workshop has at most ${EMAIL_ADDRESSES_MAX} addresses`);
          }
          await refuseDuplicate(tx, workshopId, request.body.address);
          const [inserted] = await tx
            .insert(emailAddresses)
            .values({ workshopId, address: request.body.address, languageCode: request.body.languageCode })
            .returning();
          const details = { languageCode: request.body.languageCode };
          await audit(tx, request, { action: 'emailAddress.added', workshopId, target: request.body.address, details });
          return inserted;
        });
        if (!row) throw new ApiError(409, 'EMAIL_EXISTS', 'not saved');
        return reply.status(201).send(toEmailAddress(row));
      },
    );

    app.put(
      '/emailAddress/:id',
      {
        schema: {
          tags: ['email addresses'],
          summary: 'Update an e-mail address',
          params: idParams,
          body: emailAddressRequestSchema,
          response: { 200: emailAddressSchema, ...errors },
        },
      },
      async (request) => {
        const row = await reachable(request, request.params.id);
        await refuseDuplicate(db, row.workshopId, request.body.address, row.id);
        const updated = await db.transaction(async (tx) => {
          const [changed] = await tx
            .update(emailAddresses)
            .set({ address: request.body.address, languageCode: request.body.languageCode })
            .where(eq(emailAddresses.id, row.id))
            .returning();
          if (!changed) throw notFound('E-mail address');
          await audit(tx, request, {
            action: 'emailAddress.changed',
            workshopId: row.workshopId,
            target: changed.address,
            details: changes(row, request.body),
          });
          return changed;
        });
        return toEmailAddress(updated);
      },
    );

    app.delete(
      '/emailAddress/:id',
      {
        schema: {
          tags: ['email addresses'],
          summary: 'Delete an e-mail address',
          params: idParams,
          response: { 204: noContent, ...errors },
        },
      },
      async (request, reply) => {
        const row = await reachable(request, request.params.id);
        await db.transaction(async (tx) => {
          // ...and two simultaneous deletes cannot remove the last one.
          await lockSubject(tx, `email-addresses:${row.workshopId}`);
          const [existing] = await tx
            .select({ n: count() })
            .from(emailAddresses)
            .where(eq(emailAddresses.workshopId, row.workshopId));
          if ((existing?.n ?? 0) <= EMAIL_ADDRESSES_MIN) {
            throw new ApiError(409, 'EMAIL_LIMIT_MIN', `A workshop keeps at least ${EMAIL_ADDRESSES_MIN} address`);
          }
          const deleted = await tx.delete(emailAddresses).where(eq(emailAddresses.id, row.id)).returning();
          if (deleted.length > 0) {
            await audit(tx, request, {
              action: 'emailAddress.deleted',
              workshopId: row.workshopId,
              target: row.address,
            });
          }
        });
        return reply.status(204).send();
      },
    );
  };
