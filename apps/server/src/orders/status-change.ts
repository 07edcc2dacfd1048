import { type ActivityPushResult, type OrderStatus, isReadOnlyStatus } from '@vers/domain';
import { eq } from 'drizzle-orm';
import { appendActivities, type Author } from '../activity/append.ts';
import { toPushResult } from '../activity/protocol.ts';
import type { Tx } from '../db/client.ts';
import { orders } from '../db/schema.ts';
import { recordOrderMails } from '../mail/outbox.ts';
import { supersedeSignOffs } from '../sign-off/records.ts';
import type { OrderRow } from './access.ts';

/**
 * Gives a locked order a status: the status-modification activity, the order row, and, when a done order is reopened,
 * its sign-offs marked superseded (they no longer speak for what the order will hold), and, when the order reaches
 * IN_QA, the workshop's notification mails (keyed by the status change's id). The callers check the rules and flush
 * the mails to the job queue after the transaction commits.
 */
export async function setOrderStatus(
  tx: Tx,
  order: OrderRow,
  target: OrderStatus,
  author: Author,
  id: string,
  at = new Date(),
): Promise<ActivityPushResult> {
  const [row] = await appendActivities(
    tx,
    order,
    [
      {
        id,
        key: '$.status',
        type: 'ORDER_STATUS_MODIFICATION',
        outputValue: JSON.stringify(target),
        created: at,
        seen: 'everything',
      },
    ],
    author,
    { allowReadOnly: true }, // a done order may be reopened or archived by those allowed to
  );
  await tx.update(orders).set({ status: target }).where(eq(orders.id, order.id));
  if (target === 'IN_QA' && order.status !== 'IN_QA') await recordOrderMails(tx, order, 'IN_QA', `in-qa:${id}`);
  if (isReadOnlyStatus(order.status as OrderStatus) && !isReadOnlyStatus(target)) {
    await supersedeSignOffs(tx, order.id, at);
  }
  return toPushResult(row!);
}
