import { sql } from 'drizzle-orm';
import type { Tx } from './client.ts';

/**
 * Makes a rule that reads and then writes atomic: until the transaction ends, every other transaction that locks
 * the same subject waits, on any connection and any server instance of one PostgreSQL (a transaction-scoped
 * advisory lock on a hash of the name). PGlite runs one transaction at a time anyway. Name subjects
 * `area:what:id`, e.g. `workshop-admins:4`; lock several in one fixed order.
 */
export async function lockSubject(tx: Tx, subject: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${subject}, 0))`);
}
