import path from 'node:path';
import { DEFAULT_MAX_PICTURE_BYTES } from '@vers/domain';
import { DEFAULT_JOB_TIMING, type JobTiming } from './jobs/queue.ts';
import { DEFAULT_MAIL_FROM } from './mail/transport.ts';
import { DEFAULT_WEB_DIST } from './paths.ts';

export interface Config {
  port: number;
  host: string;
  /** Unset: embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  demoPassword: string | undefined;
  /** Whether the first start also makes the demo wagon orders (seed/demo-orders.ts); `VERS_DEMO_ORDERS=false` not. */
  demoOrders: boolean;
  jwtSecret: string | undefined;
  /** Folder of the built web app; served when it exists. */
  webDist: string;
  tokenHours: number;
  gitSha: string | undefined;
  logLevel: string;
  /** Largest picture upload in bytes; a bigger one answers 413. */
  maxPictureBytes: number;
  /** Addresses or CIDR ranges of reverse proxies whose X-Forwarded-For names the client; none when unset. */
  trustProxy: string | undefined;
  /** `smtp://user:pass@host:port` for notification mails; unset: they are written into `<dataDir>/outbox/`. */
  smtpUrl: string | undefined;
  /** The notification mails' sender address. */
  mailFrom: string;
  /** How long a background job may run before it is handed out again; the first wait before a mail is retried. */
  jobTiming: JobTiming;
}

/** A picture travels as base64 inside one JSON string, which V8 and PostgreSQL bound well above this. */
const MAX_PICTURE_BYTES_CEILING = 256 * 1024 * 1024;

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, not "${raw}"`);
  return value;
}

function pictureLimit(raw: string | undefined): number {
  const value = positiveInt('VERS_MAX_PICTURE_BYTES', raw, DEFAULT_MAX_PICTURE_BYTES);
  if (value > MAX_PICTURE_BYTES_CEILING) {
    throw new Error(`VERS_MAX_PICTURE_BYTES may be at most ${MAX_PICTURE_BYTES_CEILING} (256 MB), not "${raw}"`);
  }
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: positiveInt('PORT', env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.VERS_DATA_DIR ?? './data'),
    demoPassword: env.VERS_DEMO_PASSWORD || undefined,
    demoOrders: !['false', '0', 'no'].includes((env.VERS_DEMO_ORDERS ?? '').trim().toLowerCase()),
    jwtSecret: env.VERS_JWT_SECRET || undefined,
    webDist: path.resolve(env.VERS_WEB_DIST ?? DEFAULT_WEB_DIST),
    tokenHours: positiveInt('VERS_TOKEN_HOURS', env.VERS_TOKEN_HOURS, 12),
    gitSha: env.VERS_GIT_SHA || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    maxPictureBytes: pictureLimit(env.VERS_MAX_PICTURE_BYTES),
    trustProxy: env.VERS_TRUST_PROXY || undefined,
    smtpUrl: env.VERS_SMTP_URL || undefined,
    mailFrom: env.VERS_MAIL_FROM || DEFAULT_MAIL_FROM,
    jobTiming: {
      expireSeconds: positiveInt(
        'VERS_JOB_EXPIRE_SECONDS',
        env.VERS_JOB_EXPIRE_SECONDS,
        DEFAULT_JOB_TIMING.expireSeconds,
      ),
      mailRetrySeconds: positiveInt(
        'VERS_MAIL_RETRY_SECONDS',
        env.VERS_MAIL_RETRY_SECONDS,
        DEFAULT_JOB_TIMING.mailRetrySeconds,
      ),
    },
  };
}
