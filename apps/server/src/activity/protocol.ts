import {
  ACTIVITY_TYPES,
  type Activity,
  type ActivityPush,
  type ActivityPushResult,
  type ActivityType,
  type ServerActivity,
  SENT_STATES,
} from '@vers/domain';
import type { activities } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { NewActivity } from './append.ts';

/*
 * The server's side of the sync protocol (packages/domain/src/sync/protocol.ts holds the wire shapes and the device's
 * side): how a stored activity row becomes a wire message or the domain's Activity, and a pushed message a new row.
 */

export type ActivityRow = typeof activities.$inferSelect;

/** A push as the row it will be stored as; status changes have their own call. */
export function toNew(push: ActivityPush): NewActivity {
  if (push.t === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) {
    throw new ApiError(400, 'VALIDATION', 'Status changes go through POST orders/{id}/status', ['t']);
  }
  return {
    id: push.id,
    key: push.k,
    type: (push.t ?? 'XML_MODIFICATION') as ActivityType,
    outputValue: push.oV,
    created: new Date(push.c),
    seen: push.sn ?? null,
    device: push.dv ?? null,
  };
}

export const toPushResult = (row: ActivityRow): ActivityPushResult => ({
  id: row.id,
  lm: row.lastModified.toISOString(),
  co: row.counter,
  mod: row.modifier,
});

export const toServerActivity = (row: ActivityRow): ServerActivity => ({
  id: row.id,
  oI: row.orderId,
  k: row.key,
  t: row.type,
  oV: row.outputValue,
  c: row.created.toISOString(),
  lm: row.lastModified.toISOString(),
  co: row.counter,
  re: row.reverted,
  mod: row.modifier,
  rs: row.restores,
  sn: row.seen,
  dv: row.device,
  ai: row.authorId,
  au: row.author,
});

/** A stored row as the shared fold and conflict rule read it. */
export function asDomainActivity(row: ActivityRow): Activity {
  return {
    id: row.id,
    orderId: row.orderId,
    key: row.key,
    outputValue: row.outputValue,
    activityType: row.type as ActivityType,
    created: row.created.toISOString(),
    counter: row.counter,
    counterLocal: 0,
    reverted: row.reverted,
    sent: SENT_STATES.SENT,
    restores: row.restores,
    seen: row.seen,
    device: row.device,
    authorId: row.authorId,
    author: row.author,
  };
}
