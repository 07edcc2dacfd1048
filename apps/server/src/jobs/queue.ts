import PgBoss from 'pg-boss';
import type { ExecuteSql } from '../db/client.ts';

/**
 * Background work (docs/requirements/administration.md#background-jobs): pg-boss on the
 * server's own database, PGlite included. A job names its queue and carries only ids; the handler reads what it
 * needs from the database, so whichever instance takes it does the same.
 */
export const QUEUES = { importValidation: 'import-validation', documentGeneration: 'document-generation' } as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface JobData {
  assetId: string;
}

export type JobHandler = (data: JobData) => Promise<void>;

export interface JobQueue {
  send(queue: QueueName, data: JobData): Promise<void>;
  stop(): Promise<void>;
}

/** Jobs a handler has not finished within this time are given up and retried. */
const EXPIRE_SECONDS = 120;
/** A new job is picked up at once on the instance that sent it (notifyWorker); others look this often. */
const POLLING_SECONDS = 1;

export async function startJobQueue(
  executeSql: ExecuteSql,
  handlers: Record<QueueName, JobHandler>,
  /** Jobs run at once per queue on this instance (the bench runs documents with two). */
  concurrency = 1,
): Promise<JobQueue> {
  // A job still running when the stop's 10 s are over (a PDF on a busy machine) ends later and pg-boss then writes
  // its result, on a database the server has closed meanwhile. Such late writes are dropped: the job stays open in
  // the queue and runs again after the next start (EXPIRE_SECONDS), instead of an error after shutdown.
  let stopped = false;
  const boss = new PgBoss({
    // pg-boss types its own Db with `any` values and rows; ours are unknown.
    db: {
      executeSql: async (text: string, values: unknown[]) => (stopped ? { rows: [] } : executeSql(text, values)),
    },
    schema: 'pgboss',
    schedule: false,
  });
  boss.on('error', (error) => console.warn('job queue:', error.message));
  await boss.start();
  const workers = new Map<QueueName, string[]>();
  for (const [queue, handler] of Object.entries(handlers) as [QueueName, JobHandler][]) {
    await boss.createQueue(queue, { name: queue, retryLimit: 2, retryDelay: 1, expireInSeconds: EXPIRE_SECONDS });
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      ids.push(
        await boss.work<JobData>(queue, { pollingIntervalSeconds: POLLING_SECONDS, batchSize: 1 }, async (jobs) => {
          for (const job of jobs) await handler(job.data);
        }),
      );
    }
    workers.set(queue, ids);
  }
  return {
    async send(queue, data) {
      await boss.send(queue, { ...data });
      for (const id of workers.get(queue) ?? []) boss.notifyWorker(id);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
      stopped = true;
    },
  };
}
