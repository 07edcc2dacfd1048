import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginAttempts } from '../db/schema.ts';

/** Failed sign-ins allowed per username from one address, and from one address in all, per window. */
export const LOGIN_LIMITS = { perUserAndAddress: 5, perAddress: 30, windowMinutes: 15 } as const;

/**
 * Kept in the database, not in memory, so that the limit holds across restarts and across several server
 * instances on one PostgreSQL.
 */
export async function isLoginBlocked(db: Db, username: string, address: string): Promise<boolean> {
  const since = new Date(Date.now() - LOGIN_LIMITS.windowMinutes * 60_000);
  const failedSince = and(eq(loginAttempts.succeeded, false), gt(loginAttempts.attemptedAt, since));
  const [pair] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(failedSince, eq(loginAttempts.username, username), eq(loginAttempts.address, address)));
  if ((pair?.n ?? 0) >= LOGIN_LIMITS.perUserAndAddress) return true;
  const [all] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(failedSince, eq(loginAttempts.address, address)));
  return (all?.n ?? 0) >= LOGIN_LIMITS.perAddress;
}

export async function recordLoginAttempt(db: Db, username: string, address: string, succeeded: boolean) {
  if (succeeded) {
    // A success clears this user's failures from this address, and old rows go.
    await db.delete(loginAttempts).where(and(eq(loginAttempts.username, username), eq(loginAttempts.address, address)));
    await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, new Date(Date.now() - 86_400_000)));
    return;
  }
  await db.insert(loginAttempts).values({ username, address, succeeded });
}
