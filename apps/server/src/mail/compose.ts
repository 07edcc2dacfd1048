import { join } from 'node:path';
import { type DeadlineList, LANGUAGES, type Language, formatDate, formatVehicleNumber, isOverdue } from '@vers/domain';
import type Mail from 'nodemailer/lib/mailer';
import { interpolate, read } from '../documents/pdf/labels.ts';
import { CATALOGUE_LOCALES, DOCUMENT_LOCALES } from '../paths.ts';
import type { MailKind } from './outbox.ts';

/** The order screens' names of statuses and order types, so a mail names them as the app does. */
const ORDER_LOCALES = join(CATALOGUE_LOCALES, '..', '..', 'orders', 'locales');

export interface MailContent {
  kind: Exclude<MailKind, 'DIGEST'>;
  language: string;
  workshop: { name: string };
  order: { number: string; maintenanceNumber: string; type: string; status: string };
  /** The release to service PDF of the event's sign-off, when the order's type has one. */
  attachment?: { filename: string; content: Buffer } | undefined;
}

const languageOf = (code: string): Language =>
  (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : 'de';

type ComposedMail = Pick<Mail.Options, 'subject' | 'text' | 'attachments'>;

/** The mail texts of one language: `t('subject.IN_QA', params)`. */
function mailTexts(language: Language) {
  const texts = read(DOCUMENT_LOCALES, language);
  return (key: string, params: Record<string, string | number> = {}) =>
    interpolate(texts.get(`notificationMail.${key}`) ?? key, params);
}

/** Subject and text of one mail in its address's language, built only from the order and workshop given. */
export function composeMail(content: MailContent): ComposedMail {
  const language = languageOf(content.language);
  const orderTexts = read(ORDER_LOCALES, language);
  const t = mailTexts(language);
  const params = {
    workshop: content.workshop.name,
    order: content.order.number,
    vehicle: formatVehicleNumber(content.order.maintenanceNumber),
    type: orderTexts.get(`orders.type.${content.order.type}`) ?? content.order.type,
    status: orderTexts.get(`orders.status.${content.order.status}`) ?? content.order.status,
  };
  const lines = [t(`body.${content.kind}`, params)];
  if (content.kind === 'RELEASED') lines.push(t(content.attachment ? 'body.attached' : 'body.notAttached'));
  lines.push('', '--', t('body.footer', params));
  return {
    subject: t(`subject.${content.kind}`, params),
    text: `${lines.join('\n')}\n`,
    ...(content.attachment
      ? {
          attachments: [
            {
              filename: content.attachment.filename,
              content: content.attachment.content,
              contentType: 'application/pdf',
            },
          ],
        }
      : {}),
  };
}

export interface DigestContent {
  language: string;
  workshop: { name: string };
  /** The day the days are counted from, YYYY-MM-DD. */
  today: string;
  /** The workshop's deadlines, most urgent first (the deadline rule's order). */
  deadlines: DeadlineList['deadlines'];
}

/** The weekly digest: the overdue deadlines, then those due within 30 days, one line each. */
export function composeDigest(content: DigestContent): ComposedMail {
  const language = languageOf(content.language);
  const t = mailTexts(language);
  const fieldTexts = read(CATALOGUE_LOCALES, language);
  const overdue = content.deadlines.filter(isOverdue);
  const due = content.deadlines.filter((deadline) => !isOverdue(deadline));
  const line = (deadline: DeadlineList['deadlines'][number]) => {
    const field = [
      fieldTexts.get(deadline.labelKey) ?? deadline.field,
      deadline.entry,
      deadline.wheelset ? `(${deadline.wheelset.position})` : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    const days = isOverdue(deadline)
      ? t('digest.daysOverdue', { days: -deadline.daysLeft })
      : t('digest.daysLeft', { days: deadline.daysLeft });
    const vehicle = deadline.vehicleNumber ? formatVehicleNumber(deadline.vehicleNumber) : '–';
    return `- ${deadline.orderNumber} · ${vehicle} · ${field}: ${formatDate(deadline.due, language)} (${days})`;
  };
  const params = { workshop: content.workshop.name, date: formatDate(content.today, language) };
  const lines = [t('body.DIGEST', params), ''];
  if (overdue.length > 0) lines.push(t('digest.overdue'), ...overdue.map(line), '');
  if (due.length > 0) lines.push(t('digest.due'), ...due.map(line), '');
  lines.push('--', t('body.footer', params));
  return {
    subject: t('subject.DIGEST', { workshop: content.workshop.name, overdue: overdue.length, due: due.length }),
    text: `${lines.join('\n')}\n`,
  };
}
