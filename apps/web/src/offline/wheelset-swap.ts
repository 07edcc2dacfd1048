import {
  type ErrorCode,
  type Values,
  type WheelsetSwapRequest,
  type Write,
  mountedWheelsetSchema,
  wheelsetSwap,
  wheelsetSwapActivityId,
} from '@vers/domain';
import type { EditContext } from './record-edit.ts';
import { ApiFailure, call } from '../app/api.ts';
import { newUuid } from './device.ts';

/**
 * What became of a wheelset swap (docs/requirements/orders.md#wheelset-swap): the server made it (`PATCH orders/{id}`),
 * it waits on the device as ordinary changes because the server could not be reached (they are sent, exactly once,
 * with every other change), or it was refused, with the API's code (the same code whether the server or the
 * domain's rule on this device said it).
 */
export type WheelsetSwapOutcome = { kind: 'updated' } | { kind: 'savedLocally' } | { kind: 'refused'; code: string };

/** The local day `YYYY-MM-DD`: the mount date of a swap is the workshop's day, not UTC's. */
export function localDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export interface WheelsetSwapInput {
  orderId: string;
  request: WheelsetSwapRequest;
  /** The order's values as the editor shows them: the rule judges the swap on them first. */
  values: Values;
  /** Records writes as the editor records an edit (useEditorWrite); answers what the catalogue refused. */
  record: (writes: Write[], context: EditContext) => readonly { key: string }[];
  /** Whether the device believes it is online (the scheduler's state): offline, the call is not even tried. */
  online: boolean;
}

/**
 * A swap: judged by the domain's rule on this device's values (a wrong check digit or a number mounted elsewhere is
 * told at once, offline too), then the server's call; without a connection (or a server that does not answer) the
 * same writes are recorded locally, as the status change does (status-change.ts). An XML import needs the server:
 * offline it is refused with NO_CONNECTION.
 */
export async function swapWheelset(input: WheelsetSwapInput): Promise<WheelsetSwapOutcome> {
  const request = { ...input.request, mountDate: input.request.mountDate ?? localDay() };
  const local = wheelsetSwap('WAGON', input.values, request, { today: request.mountDate });
  // One id for the call and its local record: if the call landed but its answer was lost, the recorded changes carry
  // the ids the server gave the swap's activities, and the push is answered with those instead of storing them again.
  const id = newUuid();
  if (!local.ok) return { kind: 'refused', code: local.problem.code };
  const recordLocally = (): WheelsetSwapOutcome => {
    if (request.wheelset?.assetId) return { kind: 'refused', code: 'NO_CONNECTION' satisfies ApiFailure['code'] };
    const ids = local.writes.map((_, index) => wheelsetSwapActivityId(id, index));
    const refused = input.record(local.writes, { ids });
    return refused.length > 0 ? { kind: 'refused', code: 'INCOMPATIBLE_TYPE' } : { kind: 'savedLocally' };
  };
  if (!input.online) return recordLocally();
  try {
    await call(`orders/${input.orderId}`, mountedWheelsetSchema, {
      method: 'PATCH',
      body: { id, ...request },
      handles: [0, 400, 404, 409, 502, 503, 504],
    });
    return { kind: 'updated' };
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    if (error.status !== 0 && error.status < 502)
      return { kind: 'refused', code: error.code satisfies ErrorCode | string };
    return recordLocally();
  }
}
