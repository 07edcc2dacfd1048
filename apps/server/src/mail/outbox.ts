import { randomUUID } from 'node:crypto';
import type { NotificationMail } from '@vers/domain';
import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../db/client.ts';
import { emailAddresses, notificationMails } from '../db/schema.ts';
import { type JobQueue, QUEUES } from '../jobs/queue.ts';

export type MailKind = NotificationMail['kind'];

/**
 * Records the mails of one event for every address of the order's workshop, in the caller's transaction: they exist
 * exactly when the event does. The event key is unique per address, so the same event recorded again (a resent
 * status change or sign-off) adds nothing. Only the order's own workshop's addresses are read.
 */
export function recordOrderMails(
  tx: Executor,
  order: { id: string; workshopId: number },
  kind: MailKind,
  eventKey: string,
  /** `https://host` of the request, for a release's check link. */
  origin?: string,
): Promise<void> {
  return recordWorkshopMails(tx, order.workshopId, kind, eventKey, order.id, origin);
}

/** Records one event's mails for every address of the workshop; `orderId` null for a mail about no one order. */
export async function recordWorkshopMails(
  tx: Executor,
  workshopId: number,
  kind: MailKind,
  eventKey: string,
  orderId: string | null,
  origin?: string,
): Promise<void> {
  const addresses = await tx.select().from(emailAddresses).where(eq(emailAddresses.workshopId, workshopId));
  if (addresses.length === 0) return;
  await tx
    .insert(notificationMails)
    .values(
      addresses.map((row) => {
        const id = randomUUID();
        return {
          id,
          workshopId,
          eventKey,
          kind,
          orderId,
          address: row.address,
          language: row.languageCode,
          messageId: `<${id}@vers.mail>`,
          origin: origin ?? null,
        };
      }),
    )
    .onConflictDoNothing();
}

/** Hands the waiting mails to the job queue; after the event's transaction has committed. */
export interface MailOutbox {
  /** The waiting mails of one workshop, or of all when none is named (at start). */
  flush(workshopId?: number): Promise<void>;
}

/**
 * The outbox's drain: a delivery job per waiting mail, whose job id is the mail's id, so a mail flushed twice (by two
 * events of the workshop, or at a start) still has one job. A crash between the event's commit and the flush leaves
 * the mail waiting; the next start flushes it.
 */
export function mailOutbox(db: Db, jobs: JobQueue): MailOutbox {
  return {
    async flush(workshopId) {
      const waiting = await db
        .select({ id: notificationMails.id })
        .from(notificationMails)
        .where(
          and(
            eq(notificationMails.status, 'WAITING'),
            workshopId === undefined ? undefined : eq(notificationMails.workshopId, workshopId),
          ),
        );
      for (const { id } of waiting) await jobs.send(QUEUES.mailDelivery, { assetId: id }, { id });
    },
  };
}
