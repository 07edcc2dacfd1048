import PgBoss from 'pg-boss';
import type { ExecuteSql } from '../db/client.ts';

/**
 * Background work (docs/requirements/administration.md#background-jobs): pg-boss on the
 * server's own database, PGlite included. A job names its queue and carries only ids; the handler reads what it
 * needs from the database, so whichever instance takes it does the same.
 */
export const QUEUES = {
  importValidation: 'import-validation',
  documentGeneration: 'document-generation',
  mailDelivery: 'mail-delivery',
  mailDigest: 'mail-digest',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface JobData {
  /** The asset a job works on; for a mail delivery, the mail's id (notification_mails). */
  assetId: string;
}

export type JobHandler = (data: JobData) => Promise<void>;

export interface SendOptions {
  /**
   * The job's own id: a second send with the same id adds no job while the first is still kept (pg-boss inserts
   * with ON CONFLICT DO NOTHING), so a mail enqueued twice is delivered by one job.
   */
  id?: string;
}

export interface JobQueue {
  send(queue: QueueName, data: JobData, options?: SendOptions): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Mails are retried with back-off (by default 30 s, 1 min, 2 min, ... up to about half an hour in all): an SMTP server
 * that is down for a while still gets them. The delivery records each failure's reason; after the last it gives up.
 */
export const MAIL_RETRY_LIMIT = 6;

/** How long jobs may run and when mails are tried again (VERS_JOB_EXPIRE_SECONDS, VERS_MAIL_RETRY_SECONDS). */
export interface JobTiming {
  /**
   * A job its handler has not finished within this time (its worker died or hangs) is handed out again. A mail
   * delivery holds its mail for as long (deliver.ts), so a second run never sends a mail the first is still sending.
   */
  expireSeconds: number;
  /** The first wait before a failed mail is tried again; each further wait is about twice the one before. */
  mailRetrySeconds: number;
}
export const DEFAULT_JOB_TIMING: JobTiming = { expireSeconds: 300, mailRetrySeconds: 30 };

interface QueueOptions {
  retryLimit: number;
  retryDelay: number;
  retryBackoff?: boolean;
  expireInSeconds: number;
}
function queueOptions(queue: QueueName, timing: JobTiming): QueueOptions {
  const expireInSeconds = timing.expireSeconds;
  switch (queue) {
    case 'import-validation':
    case 'document-generation':
      return { retryLimit: 2, retryDelay: 1, expireInSeconds };
    case 'mail-delivery':
      return { retryLimit: MAIL_RETRY_LIMIT, retryDelay: timing.mailRetrySeconds, retryBackoff: true, expireInSeconds };
    case 'mail-digest':
      return { retryLimit: 2, retryDelay: 60, expireInSeconds };
  }
}

/** pg-boss's own interval of looking for expired jobs; a shorter expiry is looked for as often. */
const MAINTENANCE_SECONDS = 120;
/** A new job is picked up at once on the instance that sent it (notifyWorker); others look this often. */
const POLLING_SECONDS = 1;

export async function startJobQueue(
  executeSql: ExecuteSql,
  handlers: Record<QueueName, JobHandler>,
  /** Jobs run at once per queue on this instance (the bench runs documents with two). */
  concurrency = 1,
  /**
   * Queues that get a job by cron (pg-boss schedules, in the server's time zone). A schedule is kept in the database
   * by queue name, so several instances keep one, and pg-boss makes one job per cron time however many instances run.
   */
  schedules: Partial<Record<QueueName, string>> = {},
  timing: JobTiming = DEFAULT_JOB_TIMING,
): Promise<JobQueue> {
  // Once stopped, pg-boss's late queries (a worker that fetched a job while being stopped, then records its end) are
  // left unanswered instead of reaching a database the caller closes next: the job stays open and runs again after
  // its expiry, on the next start. An answer would be an error after shutdown, which nobody could handle.
  let stopped = false;
  const boss = new PgBoss({
    // pg-boss types its own Db with `any` values and rows; ours are unknown.
    db: {
      executeSql: (text: string, values: unknown[]) =>
        stopped ? new Promise<never>(() => undefined) : executeSql(text, values),
    },
    schema: 'pgboss',
    schedule: Object.keys(schedules).length > 0,
    maintenanceIntervalSeconds: Math.min(MAINTENANCE_SECONDS, timing.expireSeconds),
  });
  boss.on('error', (error) => console.warn('job queue:', error.message));
  await boss.start();
  const workers = new Map<QueueName, string[]>();
  // The jobs this instance is running, so that a stop lets them finish and pg-boss records their end before the
  // database closes (a PDF on a busy machine can outlast pg-boss's own wait, which then wrote to a closed pool).
  const running = new Set<Promise<void>>();
  const track = (job: Promise<void>) => {
    running.add(job);
    return job.finally(() => running.delete(job));
  };
  // One query instead of a createQueue per queue at every start; a queue that exists is left as it is either way.
  const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
  for (const [queue, handler] of Object.entries(handlers) as [QueueName, JobHandler][]) {
    if (!existing.has(queue)) await boss.createQueue(queue, { name: queue, ...queueOptions(queue, timing) });
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      ids.push(
        await boss.work<JobData>(queue, { pollingIntervalSeconds: POLLING_SECONDS, batchSize: 1 }, (jobs) =>
          track(
            (async () => {
              for (const job of jobs) await handler(job.data);
            })(),
          ),
        ),
      );
    }
    workers.set(queue, ids);
  }
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const [queue, cron] of Object.entries(schedules)) await boss.schedule(queue, cron, {}, { tz: timeZone });
  return {
    async send(queue, data, options = {}) {
      // Each job carries this start's timing: a queue made by an earlier start keeps the options it was made with.
      await boss.send(
        queue,
        { ...data },
        { ...queueOptions(queue, timing), ...(options.id ? { id: options.id } : {}) },
      );
      for (const id of workers.get(queue) ?? []) boss.notifyWorker(id);
    },
    async stop() {
      // No new job is fetched; the running ones finish (a PDF on a busy machine can take long; at most
      // the job's expiry, after which the queue would run it again anyway), pg-boss records their ends, and only then
      // does the caller close the database. A job a worker fetched while being stopped is waited for too.
      const deadline = Date.now() + timing.expireSeconds * 1000;
      const settle = async () => {
        while (running.size > 0 && Date.now() < deadline) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            Promise.allSettled(running),
            new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
          ]);
          clearTimeout(timer);
        }
      };
      for (const queue of workers.keys()) await boss.offWork(queue);
      await settle();
      await boss.stop({ graceful: true, wait: true, close: false, timeout: Math.max(1000, deadline - Date.now()) });
      await settle();
      stopped = true;
    },
  };
}
