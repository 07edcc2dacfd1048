import type { OrderType } from './status.ts';

/**
 * The roots below which an order's data lives (docs/requirements/orders.md#order-keys): incoming and outgoing side per
 * order type.
 */
export const ORDER_ROOTS = {
  WAGON: { in: '$.Body.Wagen.technicalWaggonIncoming', out: '$.Body.Wagen.technicalWaggonOutgoing' },
  WHEELSET: { in: '$.Body.Radsatz.technicalWheelsetIncoming', out: '$.Body.Radsatz.technicalWheelsetOutgoing' },
} as const satisfies Record<OrderType, { in: string; out: string }>;

const SEGMENT = /^[A-Za-z][A-Za-z0-9_]*(\[\d{1,3}\])*$/;

/**
 * True for a well-formed result key of an order of this type: one of the type's two roots followed by at
 * least one property segment, each optionally with list indexes, e.g.
 * `$.Body.Wagen.technicalWaggonOutgoing.Understructure.WheelsetCollection.Wheelset[2].Wheelsetnumber`.
 */
export function isOrderKey(key: string, type: OrderType): boolean {
  const roots = ORDER_ROOTS[type];
  const root = key.startsWith(`${roots.in}.`) ? roots.in : key.startsWith(`${roots.out}.`) ? roots.out : null;
  if (!root || key.length > 500) return false;
  return key
    .slice(root.length + 1)
    .split('.')
    .every((segment) => SEGMENT.test(segment));
}

/** Keys the server writes when it creates an order (the wagon or wheelset number, outgoing wheelsets). */
export const CREATION_KEYS = {
  wagonNumber: (side: 'in' | 'out') => `${ORDER_ROOTS.WAGON[side]}.Waggonnummer`,
  outgoingWheelset: (index: number, field: 'Position' | 'Wheelsetnumber') =>
    `${ORDER_ROOTS.WAGON.out}.Understructure.WheelsetCollection.Wheelset[${index}].${field}`,
  wheelsetNumber: (side: 'in' | 'out') => `${ORDER_ROOTS.WHEELSET[side]}.Wheelsetnumber`,
} as const;

/** Whether a key is the number of a wagon's outgoing wheelset entry (`...WheelsetCollection.Wheelset[2].Wheelsetnumber`). */
export function isOutgoingWheelsetNumberKey(key: string): boolean {
  const [prefix, suffix] = CREATION_KEYS.outgoingWheelset(0, 'Wheelsetnumber').split('[0]') as [string, string];
  if (!key.startsWith(`${prefix}[`) || !key.endsWith(`]${suffix}`)) return false;
  return /^\d+$/.test(key.slice(prefix.length + 1, key.length - suffix.length - 1));
}
