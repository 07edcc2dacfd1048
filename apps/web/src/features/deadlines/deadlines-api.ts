import { type DeadlineFilter, type DeadlineList, deadlineListSchema } from '@vers/domain';
import { call } from '../../app/api.ts';

/** Statuses the screen says itself (401 keeps its global reaction: back to the sign-in). */
const handles = [0, 400, 403, 429, 500, 502, 503, 504] as const;

/** GET deadlines: the server's list for the filter, counted from the device's local date. */
export function fetchDeadlines(filter: DeadlineFilter, today: string): Promise<DeadlineList> {
  const query = new URLSearchParams({ overdue: String(filter.overdue), today });
  if (filter.within !== null) query.set('within', String(filter.within));
  return call(`deadlines?${query.toString()}`, deadlineListSchema, { handles });
}
