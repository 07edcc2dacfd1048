import {
  ALL_ORDER_STATUSES,
  type Dashboard,
  type OrderStatus,
  displayStatus,
  isReadOnlyStatus,
  openSince,
} from '@vers/domain';

/** The statuses as users see them (DONE_ARCHIVE_REQUESTED counts as DONE), in the life cycle's order. */
export const DASHBOARD_STATUSES: readonly OrderStatus[] = ALL_ORDER_STATUSES.filter(
  (status) => displayStatus(status) === status,
);

export interface StatusCount {
  status: OrderStatus;
  count: number;
}

/** The server's counts by status, as users see the statuses. */
export function shownCounts(byStatus: Dashboard['byStatus']): StatusCount[] {
  return DASHBOARD_STATUSES.map((status) => ({
    status,
    count: byStatus.filter((row) => displayStatus(row.status) === status).reduce((sum, row) => sum + row.count, 0),
  }));
}

export interface DeviceFigures {
  byStatus: StatusCount[];
  openLongerCount: number;
}

/**
 * The figures of the orders this device holds (offline): counted by the rules of the server's (not done, created
 * before `openSince`).
 */
export function deviceFigures(
  rows: readonly { order: { status: string; created: string } }[],
  days: number,
  now: Date,
): DeviceFigures {
  const counts = new Map<OrderStatus, number>();
  const before = openSince(days, now).getTime();
  let openLongerCount = 0;
  for (const { order } of rows) {
    const status = ALL_ORDER_STATUSES.find((s) => s === order.status);
    if (!status) continue;
    const shown = displayStatus(status);
    counts.set(shown, (counts.get(shown) ?? 0) + 1);
    if (!isReadOnlyStatus(status) && Date.parse(order.created) < before) openLongerCount++;
  }
  return {
    byStatus: DASHBOARD_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
    openLongerCount,
  };
}

/** The month `YYYY-MM` as its short name and year in the user's language (`Nov 26`). */
export function monthLabel(month: string, language: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(language, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year!, monthNumber! - 1, 1)),
  );
}

export interface DeadlineCounts {
  /** Deadlines already past (days left below 0). */
  overdue: number;
  /** Deadlines due from today on, within the list's window. */
  dueSoon: number;
}

/** The deadline list's rows counted as the tile shows them. */
export function countDeadlines(deadlines: readonly { daysLeft: number }[]): DeadlineCounts {
  const overdue = deadlines.filter((deadline) => deadline.daysLeft < 0).length;
  return { overdue, dueSoon: deadlines.length - overdue };
}
