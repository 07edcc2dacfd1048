import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  NOTIFICATION_MAILS_LISTED,
  type NotificationMail,
  errorBodySchema,
  idParamSchema,
  notificationMailSchema,
} from '@vers/domain';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachment, fileBytesSchema } from '../assets/routes.ts';
import { sessionUser } from '../auth/session.ts';
import { reaches, workshopInScope } from '../auth/tenancy.ts';
import type { Db } from '../db/client.ts';
import { notificationMails, orders } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

const errors = { 400: errorBodySchema, 404: errorBodySchema };

type Row = typeof notificationMails.$inferSelect;
const toMail = (row: Row, orderNumber: string | null): NotificationMail => ({
  id: row.id,
  kind: row.kind as NotificationMail['kind'],
  address: row.address,
  language: row.language,
  orderNumber,
  status: row.status as NotificationMail['status'],
  reason: row.reason,
  attempts: row.attempts,
  created: row.created.toISOString(),
  sentAt: row.sentAt?.toISOString() ?? null,
  hasFile: row.file !== null,
});

/** What became of a workshop's notification mails (issue 23): the workshop page lists them. */
export const mailRoutes =
  (db: Db, outboxDir: string): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/notificationMails',
      {
        schema: {
          tags: ['email addresses'],
          summary: "A workshop's latest notification e-mails",
          description:
            `The newest ${NOTIFICATION_MAILS_LISTED} mails, newest first: per address WAITING (queued or being ` +
            'retried, `reason` says why the last attempt failed), SENT, or FAILED with the reason (e.g. the SMTP ' +
            "server's refusal of the address). Workshop admins see their own workshop; system admins name one by " +
            '`workshopId`.',
          querystring: z.object({ workshopId: idParamSchema.optional() }),
          response: { 200: z.array(notificationMailSchema), ...errors },
        },
      },
      async (request) => {
        const workshopId = workshopInScope(sessionUser(request), request.query.workshopId);
        if (workshopId === null) throw notFound('Workshop');
        const rows = await db
          .select({ mail: notificationMails, orderNumber: orders.number })
          .from(notificationMails)
          .leftJoin(orders, eq(orders.id, notificationMails.orderId))
          .where(eq(notificationMails.workshopId, workshopId))
          .orderBy(desc(notificationMails.created), notificationMails.address)
          .limit(NOTIFICATION_MAILS_LISTED);
        return rows.map((row) => toMail(row.mail, row.orderNumber));
      },
    );

    app.get(
      '/notificationMails/:id/eml',
      {
        schema: {
          tags: ['email addresses'],
          summary: 'Download a mail written to the outbox',
          description:
            'With no SMTP server configured (VERS_SMTP_URL unset) each mail is written as an .eml file into the ' +
            "data folder's outbox; this answers it as message/rfc822. 404 for a mail sent over SMTP.",
          params: z.object({ id: z.uuid() }),
          response: {
            200: {
              description: 'The mail as RFC 5322 text',
              content: { 'message/rfc822': { schema: fileBytesSchema } },
            },
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const [row] = await db.select().from(notificationMails).where(eq(notificationMails.id, request.params.id));
        if (!row || !reaches(sessionUser(request), row.workshopId) || !row.file) throw notFound('E-mail');
        // The file name is the mail's own id, written by the server; never a path from the request.
        const file = path.join(outboxDir, path.basename(row.file));
        if (!existsSync(file)) throw notFound('E-mail');
        return reply
          .type('message/rfc822')
          .header('content-disposition', attachment(row.file))
          .header('x-content-type-options', 'nosniff')
          .send(readFileSync(file));
      },
    );
  };
