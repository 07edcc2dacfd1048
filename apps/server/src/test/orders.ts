import { randomUUID } from 'node:crypto';
import { attributeValue, checkDigit } from '@vers/domain';
import type { TestServer } from './server.ts';

/** Real wagon and wheelset numbers with correct check digits (domain-notes: UIC numbering). */
export const WAGON_NUMBER = '21 81 2471 217-3';
export const WAGON_NUMBER_2 = '51 80 0843 001-0';

export const wheelsetNumbers = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `4${String(1_000_000_000 + i).slice(-10)}${checkDigit(`4${String(1_000_000_000 + i).slice(-10)}`)}`,
  );

export async function createWagonOrder(server: Pick<TestServer, 'request'>, token: string, wheelsets = 4) {
  const res = await server.request<{ id: string; number: string; status: string; lastCounter: number }>(
    'POST',
    '/api/v1/orders',
    {
      token,
      body: {
        id: randomUUID(),
        type: 'WAGON',
        contractor: 'DBC',
        externalOrderNumber: 'EXT-1',
        maintenanceNumber: WAGON_NUMBER,
        wagon: { number: WAGON_NUMBER, wheelsetsOutgoing: wheelsetNumbers(wheelsets).map((number) => ({ number })) },
      },
    },
  );
  if (res.status !== 200) throw new Error(`order not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const IN = '$.Body.Wagen.technicalWaggonIncoming';
export const OUT = '$.Body.Wagen.technicalWaggonOutgoing';

/** A field change as the browser sends it: the value wrapped in an attribute with its capture time. */
export function push(orderId: string, key: string, value: string | boolean, id: string = randomUUID()) {
  const now = new Date();
  return {
    id,
    oI: orderId,
    k: key,
    t: 'XML_MODIFICATION',
    oV: JSON.stringify(attributeValue(value, now)),
    c: now.toISOString(),
  };
}

/** Signs an order off (the way to DONE and DONE_ARCHIVED); the answer as it came. */
export async function signOff(
  server: TestServer,
  token: string,
  orderId: string,
  options: { status?: 'DONE' | 'DONE_ARCHIVED'; meaning?: string; password?: string; id?: string } = {},
) {
  return server.request<{ id: string; code: string; contentHash: string; supersededAt: string | null }>(
    'POST',
    `/api/v1/orders/${orderId}/sign-off`,
    {
      token,
      body: {
        id: options.id ?? randomUUID(),
        password: options.password ?? 'Demo-Pass1',
        meaning: options.meaning ?? 'QUALITY_CHECK_PASSED',
        ...(options.status === undefined && options.meaning !== undefined ? {} : { status: options.status ?? 'DONE' }),
      },
    },
  );
}
