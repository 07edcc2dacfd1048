import {
  type SignOff,
  type SignOffCheck,
  type SignOffRequest,
  orderSchema,
  signOffCheckSchema,
  signOffListSchema,
  signOffSchema,
} from '@vers/domain';
import { ApiFailure, call } from '../../app/api.ts';
import { newUuid } from '../../offline/device.ts';

/** What became of a sign-off: each failure is said in the dialog, which keeps the password typed. */
export type SignOffOutcome =
  | { kind: 'signed'; signOff: SignOff }
  | { kind: 'offline' }
  | { kind: 'wrongPassword' }
  | { kind: 'throttled'; failure: ApiFailure }
  | { kind: 'incomplete'; fields: string[] }
  | { kind: 'refused'; code: string };

/** Statuses the dialog says itself; anything else (5xx) is "could not be recorded". */
const HANDLED = [0, 400, 403, 404, 409, 429, 500, 502, 503, 504];

/**
 * POST orders/{id}/sign-off. Needs the server: offline nothing is sent and nothing waits on the device, since a
 * sign-off states something at a moment, with a password the server checks then.
 */
export async function signOffOrder(orderId: string, request: Omit<SignOffRequest, 'id'>): Promise<SignOffOutcome> {
  try {
    const signOff = await call(`orders/${orderId}/sign-off`, signOffSchema, {
      method: 'POST',
      body: { ...request, id: newUuid() },
      handles: HANDLED,
    });
    return { kind: 'signed', signOff };
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    if (error.status === 0) return { kind: 'offline' };
    if (error.code === 'WRONG_PASSWORD') return { kind: 'wrongPassword' };
    if (error.status === 429) return { kind: 'throttled', failure: error };
    if (error.code === 'RELEASE_INCOMPLETE') return { kind: 'incomplete', fields: error.fields };
    return { kind: 'refused', code: error.code };
  }
}

/** GET orders/{id}: the order as the server has it. */
export const fetchOrder = (orderId: string) =>
  call(`orders/${orderId}`, orderSchema, { handles: [0, 403, 404, 500, 502, 503, 504] });

export const fetchSignOffs = (orderId: string) =>
  call(`orders/${orderId}/sign-offs`, signOffListSchema, { handles: [0, 403, 404, 500, 502, 503, 504] });

/** GET sign-offs/{code}: null when no sign-off has the code. */
export async function checkSignOff(code: string): Promise<SignOffCheck | null> {
  try {
    return await call(`sign-offs/${encodeURIComponent(code)}`, signOffCheckSchema, {
      handles: [0, 400, 404, 429, 500, 502, 503, 504],
    });
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return null;
    throw error;
  }
}
