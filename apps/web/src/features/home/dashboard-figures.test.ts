import { ORDER_STATUSES } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_STATUSES, countDeadlines, deviceFigures, shownCounts } from './dashboard-figures.ts';

const now = new Date('2026-11-27T12:00:00Z');
const daysAgo = (n: number) => new Date(now.getTime() - n * 24 * 60 * 60 * 1000).toISOString();

describe('the dashboard’s figures', () => {
  it('shows DONE_ARCHIVE_REQUESTED as DONE and every status users see, zeros included', () => {
    expect(DASHBOARD_STATUSES).not.toContain(ORDER_STATUSES.DONE_ARCHIVE_REQUESTED);
    const counts = shownCounts([
      { status: 'DONE', count: 2 },
      { status: 'DONE_ARCHIVE_REQUESTED', count: 3 },
      { status: 'IN_QA', count: 1 },
    ]);
    expect(counts).toEqual([
      { status: 'CREATED', count: 0 },
      { status: 'IN_CREATION', count: 0 },
      { status: 'IN_WORK', count: 0 },
      { status: 'IN_QA', count: 1 },
      { status: 'DONE', count: 5 },
      { status: 'DONE_ARCHIVED', count: 0 },
    ]);
  });

  it('counts the device’s orders by status and those not done older than N days', () => {
    const figures = deviceFigures(
      [
        { order: { status: 'IN_WORK', created: daysAgo(20) } },
        { order: { status: 'CREATED', created: daysAgo(15) } },
        { order: { status: 'IN_QA', created: daysAgo(3) } },
        { order: { status: 'DONE', created: daysAgo(40) } },
        { order: { status: 'DONE_ARCHIVE_REQUESTED', created: daysAgo(40) } },
      ],
      14,
      now,
    );
    expect(figures.openLongerCount).toBe(2);
    expect(Object.fromEntries(figures.byStatus.map((row) => [row.status, row.count]))).toEqual({
      CREATED: 1,
      IN_CREATION: 0,
      IN_WORK: 1,
      IN_QA: 1,
      DONE: 2,
      DONE_ARCHIVED: 0,
    });
    expect(deviceFigures([{ order: { status: 'IN_WORK', created: daysAgo(20) } }], 21, now).openLongerCount).toBe(0);
  });

  it('counts the deadlines past as overdue and the others as due soon, due today among these', () => {
    expect(
      countDeadlines([{ daysLeft: -3 }, { daysLeft: -1 }, { daysLeft: 0 }, { daysLeft: 29 }, { daysLeft: 30 }]),
    ).toEqual({ overdue: 2, dueSoon: 3 });
    expect(countDeadlines([])).toEqual({ overdue: 0, dueSoon: 0 });
  });
});
