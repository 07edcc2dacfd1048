import { type DeadlineList, localDate } from '@vers/domain';
import type { Db } from '../db/client.ts';
import { emailAddresses } from '../db/schema.ts';
import { workshopDeadlines } from '../deadlines/routes.ts';
import { type MailOutbox, recordWorkshopMails } from './outbox.ts';

/** The digest lists the deadlines due within this many days, and the overdue ones. */
export const DIGEST_DAYS = 30;
/** Mondays at 06:00 in the server's time zone (pg-boss cron). */
export const DIGEST_CRON = '0 6 * * 1';

/** The ISO 8601 week of a date `YYYY-MM-DD`, e.g. `2026-W48` (the week of its Thursday). */
export function isoWeek(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(year, month - 1, day));
  at.setUTCDate(at.getUTCDate() + 4 - (at.getUTCDay() || 7));
  const weekYear = at.getUTCFullYear();
  const week = Math.ceil(((at.getTime() - Date.UTC(weekYear, 0, 1)) / 86_400_000 + 1) / 7);
  return `${weekYear}-W${String(week).padStart(2, '0')}`;
}

/** What a workshop's digest lists on `today`: its orders' deadlines overdue or due within DIGEST_DAYS. */
export const digestDeadlines = (db: Db, workshopId: number, today: string): Promise<DeadlineList> =>
  workshopDeadlines(db, workshopId, { within: DIGEST_DAYS, overdue: true, today });

/**
 * The weekly digest job: for every workshop with addresses and with a deadline overdue or due soon, one mail per
 * address, keyed by the workshop and the ISO week, so a second run in the same week (a retry, a second instance's
 * schedule) mails nothing again. A workshop with nothing due gets no mail. The mails list the deadlines as they are
 * when sent.
 */
export async function weeklyDigest(db: Db, outbox: MailOutbox, today = localDate()): Promise<void> {
  const workshops = await db.selectDistinct({ workshopId: emailAddresses.workshopId }).from(emailAddresses);
  for (const { workshopId } of workshops) {
    const { deadlines } = await digestDeadlines(db, workshopId, today);
    if (deadlines.length === 0) continue;
    await recordWorkshopMails(db, workshopId, 'DIGEST', `digest:${workshopId}:${isoWeek(today)}`, null);
    await outbox.flush(workshopId);
  }
}
