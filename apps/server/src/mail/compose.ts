import { join } from 'node:path';
import { LANGUAGES, type Language, formatVehicleNumber } from '@vers/domain';
import type Mail from 'nodemailer/lib/mailer';
import { interpolate, read } from '../documents/pdf/labels.ts';
import { CATALOGUE_LOCALES, DOCUMENT_LOCALES } from '../paths.ts';
import type { MailKind } from './outbox.ts';

/** The order screens' names of statuses and order types, so a mail names them as the app does. */
const ORDER_LOCALES = join(CATALOGUE_LOCALES, '..', '..', 'orders', 'locales');

export interface MailContent {
  kind: MailKind;
  language: string;
  workshop: { name: string };
  order: { number: string; maintenanceNumber: string; type: string; status: string };
  /** The release to service PDF of the event's sign-off, when the order's type has one. */
  attachment?: { filename: string; content: Buffer } | undefined;
}

const languageOf = (code: string): Language =>
  (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : 'de';

/** Subject and text of one mail in its address's language, built only from the order and workshop given. */
export function composeMail(content: MailContent): Pick<Mail.Options, 'subject' | 'text' | 'attachments'> {
  const language = languageOf(content.language);
  const texts = read(DOCUMENT_LOCALES, language);
  const orderTexts = read(ORDER_LOCALES, language);
  const t = (key: string, params: Record<string, string> = {}) =>
    interpolate(texts.get(`notificationMail.${key}`) ?? key, params);
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
