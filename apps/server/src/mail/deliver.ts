import { LANGUAGES, type Language, type OrderType, exportTypesFor, localDate, recordedSubVehicles } from '@vers/domain';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { orderValues } from '../activity/append.ts';
import type { Db } from '../db/client.ts';
import { notificationMails, orderSignOffs, orders, users, workshops } from '../db/schema.ts';
import { documentFilename, renderDocument } from '../documents/generate.ts';
import { MAIL_RETRY_LIMIT } from '../jobs/queue.ts';
import { composeDigest, composeMail } from './compose.ts';
import { digestDeadlines } from './digest.ts';
import type { MailKind } from './outbox.ts';
import type { MailTransport } from './transport.ts';

/** An SMTP answer that no retry changes (5xx: unknown mailbox, refused recipient), as opposed to 4xx or no answer. */
function permanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** What the SMTP server said, or why there was no answer; kept short for the workshop page. */
function reasonOf(error: unknown): string {
  const { response, message } = error as { response?: unknown; message?: unknown };
  const text = typeof response === 'string' && response ? response : String(message ?? error);
  return text.slice(0, 500);
}

/**
 * The mail-delivery job: sends one recorded mail and records the outcome. A mail already SENT or FAILED is left alone,
 * so a job run again (a retry, a second enqueue) never sends what was sent and recorded. An attempt takes the mail in
 * one statement (waiting and not held by another attempt) and holds it for `holdSeconds`, the job's expiry: a run of
 * the same job that pg-boss starts while the first is still sending (it took longer than the expiry) finds it held and
 * is tried again later (by then sent, or free), and the first attempt's end clears the hold. Every outcome is recorded
 * only while the mail's attempt number is still this attempt's: an attempt that outlived its hold (a newer one took
 * the mail) never overwrites the newer one's outcome.
 *
 * The guarantee: the mail is recorded SENT right after the SMTP server accepted it (its 250 after DATA). A worker that
 * dies before that acceptance (mid-send) left nothing delivered, and the retry sends it once. The remaining window is
 * between the server's acceptance and the UPDATE below (milliseconds): a crash exactly there sends the mail again on
 * retry, with the same Message-ID, so a receiving system that removes duplicates by Message-ID shows it once.
 */
export async function deliverMail(db: Db, transport: MailTransport, mailId: string, holdSeconds: number) {
  const [mail] = await db
    .update(notificationMails)
    .set({
      attempts: sql`${notificationMails.attempts} + 1`,
      heldUntil: sql`now() + make_interval(secs => ${holdSeconds})`,
    })
    .where(
      and(
        eq(notificationMails.id, mailId),
        eq(notificationMails.status, 'WAITING'),
        or(isNull(notificationMails.heldUntil), lt(notificationMails.heldUntil, sql`now()`)),
      ),
    )
    .returning();
  if (!mail) {
    const [left] = await db
      .select({ status: notificationMails.status })
      .from(notificationMails)
      .where(eq(notificationMails.id, mailId));
    // Held by another attempt, which may still send it or may have died: this run is tried again later rather than
    // ending its job, so a mail whose holder died is never left waiting without a job.
    if (left?.status === 'WAITING') throw new Error('the mail is being sent by another attempt');
    return;
  }
  const { attempts } = mail;
  const mine = and(eq(notificationMails.id, mail.id), eq(notificationMails.attempts, attempts));
  const fail = (reason: string) =>
    db.update(notificationMails).set({ status: 'FAILED', reason, heldUntil: null }).where(mine);

  try {
    // Inside the attempt: a failure to put the mail together (its PDF) ends the hold and is tried again, too.
    const [workshop] = await db.select().from(workshops).where(eq(workshops.id, mail.workshopId));
    const message = workshop ? await composed(db, mail, workshop) : undefined;
    if (!workshop || !message) {
      await fail('The order was deleted before the mail was sent');
      return;
    }
    const sent = await transport.send(
      {
        ...message,
        from: { name: `${workshop.name} (VERS)`, address: transport.from },
        ...(workshop.email ? { replyTo: workshop.email } : {}),
        to: mail.address,
        messageId: mail.messageId,
        headers: { 'Content-Language': mail.language },
      },
      mail.id,
    );
    await db
      .update(notificationMails)
      .set({ status: 'SENT', reason: null, sentAt: new Date(), file: sent.file, heldUntil: null })
      .where(mine);
  } catch (error) {
    const reason = reasonOf(error);
    // A refused address or the last attempt: a visible failure, not a crash and not another retry.
    if (permanent(error) || attempts > MAIL_RETRY_LIMIT) {
      await fail(reason);
      return;
    }
    await db.update(notificationMails).set({ reason, heldUntil: null }).where(mine);
    throw error; // pg-boss retries with back-off
  }
}

type MailRow = typeof notificationMails.$inferSelect;

/** The mail's subject, text and attachment, from its own workshop's data only; none when its order is gone. */
async function composed(db: Db, mail: MailRow, workshop: { name: string }) {
  const kind = mail.kind as MailKind;
  if (kind === 'DIGEST') {
    const today = localDate();
    const { deadlines } = await digestDeadlines(db, mail.workshopId, today);
    return composeDigest({ language: mail.language, workshop, today, deadlines });
  }
  // An order of another workshop is not found: the mail never names another workshop's order.
  const [order] = mail.orderId
    ? await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, mail.orderId), eq(orders.workshopId, mail.workshopId)))
    : [];
  if (!order) return undefined;
  const attachment = kind === 'RELEASED' ? await releasePdf(db, order, mail) : undefined;
  return composeMail({
    kind,
    language: mail.language,
    workshop,
    order: {
      number: order.number,
      maintenanceNumber: order.maintenanceNumber,
      type: order.type,
      status: kind === 'IN_QA' ? 'IN_QA' : order.status,
    },
    attachment,
  });
}

/**
 * The release to service of the event's sign-off as a PDF in the mail's language, rendered as POST export would;
 * none when the order's type has no such document or the sign-off was superseded since (the order was reopened).
 */
async function releasePdf(db: Db, order: typeof orders.$inferSelect, mail: MailRow) {
  const type = order.type as OrderType;
  if (!exportTypesFor(type).includes('RELEASE_TO_SERVICE')) return undefined;
  const signOffId = mail.eventKey.replace(/^released:/, '');
  const [signOff] = await db
    .select()
    .from(orderSignOffs)
    .where(and(eq(orderSignOffs.id, signOffId), eq(orderSignOffs.orderId, order.id)));
  if (!signOff || signOff.supersededAt) return undefined;
  const [signer] = await db.select().from(users).where(eq(users.id, signOff.signerId));
  const language = (LANGUAGES as readonly string[]).includes(mail.language) ? (mail.language as Language) : 'de';
  const content = await renderDocument(db, order.id, 'RELEASE_TO_SERVICE', {
    language,
    subVehicles: recordedSubVehicles(type, await orderValues(db, order.id)),
    issuedBy: signer
      ? { firstName: signer.firstName, lastName: signer.lastName }
      : { firstName: signOff.signer, lastName: '' },
    signOffId,
    origin: mail.origin ?? '',
  });
  return { filename: documentFilename(order.number, 'RELEASE_TO_SERVICE', language), content };
}
