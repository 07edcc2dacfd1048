import { AUDIT_PAGE_SIZE, auditEntrySchema, auditQuerySchema, errorBodySchema } from '@vers/domain';
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionUser } from '../auth/session.ts';
import { workshopInScope } from '../auth/tenancy.ts';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

/** The audit trail of one workshop, newest first, for the admins who may see that workshop. */
export const auditRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/audit',
      {
        schema: {
          tags: ['audit'],
          summary: "List a workshop's audit trail",
          description:
            'Administrative changes and failed or throttled sign-ins, newest first, ' +
            `${AUDIT_PAGE_SIZE} per page (\`before\`: entries older than that id). Workshop admins see their own ` +
            "workshop's; system admins name one, or none for the entries about no workshop.",
          querystring: auditQuerySchema,
          response: { 200: z.array(auditEntrySchema), 404: errorBodySchema },
        },
      },
      async (request) => {
        const workshopId = workshopInScope(sessionUser(request), request.query.workshopId);
        const rows = await db
          .select()
          .from(auditLog)
          .where(
            and(
              workshopId === null ? isNull(auditLog.workshopId) : eq(auditLog.workshopId, workshopId),
              request.query.before === undefined ? undefined : lt(auditLog.id, request.query.before),
            ),
          )
          .orderBy(desc(auditLog.id))
          .limit(AUDIT_PAGE_SIZE);
        return rows.map((row) => ({
          id: row.id,
          at: row.at.toISOString(),
          actor: row.actor,
          workshopId: row.workshopId,
          action: auditEntrySchema.shape.action.parse(row.action),
          target: row.target,
          details: row.details,
          address: row.address,
        }));
      },
    );
  };
