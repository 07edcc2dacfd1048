import {
  ACTIVITY_TYPES,
  ALL_ORDER_TYPES,
  type Activity,
  type Deadline,
  type DeadlineFilter,
  deadlineKeyPatterns,
  deadlineList,
  foldActivities,
} from '@vers/domain';
import type { VersDb } from '../../offline/versdb.ts';

/** The server's LIKE patterns as one expression: a list index (`%`) is digits, the rest is literal. */
const DEADLINE_KEY = new RegExp(
  `^(?:${ALL_ORDER_TYPES.flatMap((type) => deadlineKeyPatterns(type))
    .map((pattern) =>
      pattern
        .split('%')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('\\d+'),
    )
    .join('|')})$`,
);

/** A row that can give or take a deadline: a deadline key, a code naming its entry, or the removal of an entry. */
const mayMatter = (row: Activity) => row.activityType === ACTIVITY_TYPES.XML_DELETE || DEADLINE_KEY.test(row.key);

/**
 * The deadline list from this device's own orders (offline): the orders it keeps and every change it holds of them,
 * unsent ones included, folded and filtered by the same domain rule as the server's list.
 */
export async function deviceDeadlines(db: VersDb, filter: DeadlineFilter, today: string): Promise<Deadline[]> {
  const [orders, rows] = await Promise.all([db.orders.toArray(), db.orderResults.toArray()]);
  const byOrder = new Map<string, Activity[]>();
  for (const row of rows) {
    if (!mayMatter(row)) continue;
    const log = byOrder.get(row.orderId);
    if (log) log.push(row);
    else byOrder.set(row.orderId, [row]);
  }
  const sources = orders.flatMap(({ order }) => {
    const log = byOrder.get(order.id);
    return log ? [{ order, values: foldActivities(log).values }] : [];
  });
  return deadlineList(sources, filter, today);
}
