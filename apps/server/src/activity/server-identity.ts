import type { ServerIdentity } from '@vers/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { serverIdentity } from '../db/schema.ts';

/** The database's identity and generation (docs/requirements/sync.md#data-flow-restored-server). */
export async function readIdentity(db: Executor): Promise<ServerIdentity> {
  const [row] = await db.select().from(serverIdentity);
  if (!row) throw new Error('server_identity has no row: the migrations did not run');
  return { database: row.id, generation: row.generation };
}

/**
 * A client showed that this database lacks what it had acknowledged in generation `seenGeneration` (or the client
 * knows a newer generation than this database: a backup from before it was restored). Raises the generation past
 * both, once: the `WHERE` makes the clients that report the same loss at once raise it together, by one. Every
 * device that sees the new generation re-sends what the server lacks and re-reads its orders.
 */
export async function recordLoss(db: Executor, seenGeneration: number): Promise<ServerIdentity> {
  await db
    .update(serverIdentity)
    .set({ generation: sql`${seenGeneration}::integer + 1` })
    .where(sql`${serverIdentity.generation} <= ${seenGeneration}::integer`);
  return readIdentity(db);
}
