import { ACTIVITY_TYPES, activityPushResultSchema, type OrderStatus } from '@vers/domain';
import { ApiFailure, call } from '../app/api.ts';
import { newUuid } from './device.ts';
import { recordChanges } from './order-results.ts';
import type { VersDb } from './versdb.ts';

/**
 * What became of a status change (docs/requirements/statuses.md#status-change-activity): the server took it, it waits
 * on the device because the server could not be reached (sent in its place among the changes later,
 * docs/requirements/statuses.md#offline-status-change), or the server refused it (the role rules).
 */
export type StatusChangeOutcome = 'updated' | 'savedLocally' | 'refused';

/** Changes an order's status: online through the status call, offline as a waiting change. */
export async function changeStatus(db: VersDb, orderId: string, next: OrderStatus): Promise<StatusChangeOutcome> {
  try {
    await call(`orders/${orderId}/status`, activityPushResultSchema, {
      method: 'POST',
      body: { status: next, id: newUuid() },
      handles: [0, 400, 403, 404, 409, 502, 503, 504],
    });
    return 'updated';
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    if (error.status !== 0 && error.status < 502) return 'refused';
    await recordChanges(db, [
      { orderId, key: '$.status', value: next, activityType: ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION },
    ]);
    return 'savedLocally';
  }
}
