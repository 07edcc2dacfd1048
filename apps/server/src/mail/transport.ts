import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';

/** The sender when VERS_MAIL_FROM is unset. */
export const DEFAULT_MAIL_FROM = 'vers@localhost';

export interface MailSettings {
  /** `smtp://user:pass@host:port` (VERS_SMTP_URL); unset: mails are written as .eml files into `outboxDir`. */
  smtpUrl?: string | undefined;
  /** `<data folder>/outbox` */
  outboxDir: string;
  /** The sender's address (VERS_MAIL_FROM). */
  from: string;
}

export interface SentMail {
  /** The .eml file's name in the outbox folder; null when sent over SMTP. */
  file: string | null;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  /** The sender's address. */
  readonly from: string;
  /** Sends one mail; `name` names its file in the outbox. Throws what the SMTP server answered. */
  send(message: Mail.Options, name: string): Promise<SentMail>;
  close(): void;
}

/**
 * How long an SMTP server may take to answer one step before the attempt counts as failed (and is retried): a tenth
 * of the job's expiry, at most 30 s. A session has about seven steps (connect, greeting, EHLO, MAIL, RCPT, DATA, the
 * end of the message), so even a server that takes just under the limit at each ends the attempt (and frees its
 * mail) before its job is handed out again.
 */
export function smtpTimeoutMs(timing: { expireSeconds: number }): number {
  return Math.min(30_000, (timing.expireSeconds * 1000) / 10);
}

export function createMailTransport(settings: MailSettings, timeoutMs = 30_000): MailTransport {
  if (settings.smtpUrl) {
    const transporter = nodemailer.createTransport(settings.smtpUrl, {
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    return {
      kind: 'smtp',
      from: settings.from,
      async send(message) {
        await transporter.sendMail(message);
        return { file: null };
      },
      close: () => transporter.close(),
    };
  }
  // The embedded default: the message as the SMTP server would have got it, in a file named by the mail's id, so a
  // retried mail overwrites its own file instead of adding a second.
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    from: settings.from,
    async send(message, name) {
      const info = await transporter.sendMail(message);
      mkdirSync(settings.outboxDir, { recursive: true });
      const file = `${name}.eml`;
      writeFileSync(path.join(settings.outboxDir, file), info.message as Buffer);
      return { file };
    },
    close: () => transporter.close(),
  };
}
