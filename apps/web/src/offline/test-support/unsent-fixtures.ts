/** For tests only: local orders and unsent changes as the browser keeps them, for the unsent-changes views and file. */
import { type Activity, type Order, SENT_STATES, UNSENT_COUNTER } from '@vers/domain';
import type { LocalOrder } from '../versdb.ts';

export const IN = '$.Body.Wagen.technicalWaggonIncoming';
export const OUT = '$.Body.Wagen.technicalWaggonOutgoing';

/** A wagon order the server knows (sent 1), with `fields` on its order data and `local` on the local row. */
export function localOrder(fields: Partial<Order> = {}, local: Partial<LocalOrder> = {}): LocalOrder {
  const id = fields.id ?? crypto.randomUUID();
  return {
    id,
    sent: 1,
    order: {
      id,
      number: 'A-17',
      externalOrderNumber: '',
      maintenanceNumber: '218124712173',
      contractor: '',
      type: 'WAGON',
      status: 'IN_WORK',
      created: '2026-11-20T08:00:00.000Z',
      importedDate: null,
      assetId: null,
      wagonNumber: '218124712173',
      wheelsetNumber: null,
      lastCounter: 0,
      ...fields,
    },
    ...local,
  };
}

/** An unsent field change (incoming Eigengewicht 22500) of a new random order, with `fields` on top. */
export function unsentRow(fields: Partial<Activity> = {}): Activity {
  return {
    id: crypto.randomUUID(),
    orderId: crypto.randomUUID(),
    key: `${IN}.Eigengewicht`,
    outputValue: '{"value":"22500","CaptureDate":"2026-11-21T10:00:00.000Z"}',
    activityType: 'XML_MODIFICATION',
    created: '2026-11-21T10:00:00.000Z',
    counter: UNSENT_COUNTER,
    counterLocal: 0,
    reverted: false,
    sent: SENT_STATES.UNSENT,
    ...fields,
  };
}
