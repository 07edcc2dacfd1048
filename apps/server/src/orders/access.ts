import { eq } from 'drizzle-orm';
import type { SessionUser } from '../auth/session.ts';
import type { Executor } from '../db/client.ts';
import { orders } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { missing } from './tombstones.ts';

export type OrderRow = typeof orders.$inferSelect;

/** An order of the user's own workshop, or 404: another workshop's orders do not exist for this user. */
export async function ownOrder(ex: Executor, user: SessionUser, orderId: string, lock = false): Promise<OrderRow> {
  const query = ex.select().from(orders).where(eq(orders.id, orderId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw await missing(ex, 'Order', orderId, user.workshopId);
  if (row.workshopId !== user.workshopId) throw notFound('Order');
  return row;
}
