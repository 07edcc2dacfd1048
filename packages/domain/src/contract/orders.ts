import { z } from 'zod';
import { ALL_ORDER_STATUSES, ALL_ORDER_TYPES } from '../orders/status.ts';
import { CREATION_KEYS } from '../orders/paths.ts';
import { earlierSameNumbers, isValidVehicleNumber, validateVehicleNumber } from '../orders/vehicle-number.ts';

export const WHEELSETS_PER_WAGON = { min: 2, max: 8, default: 4 } as const;

const vehicleNumber = z
  .string()
  .max(40)
  .refine(isValidVehicleNumber, 'CHECK_NUMBER: 12 digits with a correct check digit');
const requiredVehicleNumber = vehicleNumber.refine((v) => v.replace(/[\s-]/g, '') !== '', 'required');

export const orderStatusSchema = z.enum(ALL_ORDER_STATUSES as [string, ...string[]]);
export const orderTypeSchema = z.enum(ALL_ORDER_TYPES as [string, ...string[]]);

export const orderSchema = z.object({
  id: z.uuid(),
  number: z.string(),
  externalOrderNumber: z.string(),
  maintenanceNumber: z.string(),
  contractor: z.string(),
  type: orderTypeSchema,
  status: orderStatusSchema,
  created: z.string(),
  importedDate: z.string().nullable(),
  assetId: z.string().nullable(),
  wagonNumber: z.string().nullable(),
  wheelsetNumber: z.string().nullable(),
  /** Highest activity counter of the order on the server. */
  lastCounter: z.number().int(),
});
export type Order = z.infer<typeof orderSchema>;

export const createOrderRequestSchema = z
  .object({
    /** Made by the browser (an order created offline keeps it); the server makes one when absent. */
    id: z.uuid().optional(),
    /** The browser that creates the order: its creation values count as that device's changes (conflicts.ts). */
    dv: z.uuid().optional(),
    contractor: z.string().trim().max(200).default(''),
    type: orderTypeSchema,
    /** The workshop's order number; the server hands out the next one when empty. */
    number: z.string().trim().max(50).optional(),
    externalOrderNumber: z.string().trim().max(100).default(''),
    maintenanceNumber: requiredVehicleNumber,
    wagon: z
      .object({
        assetId: z.string().max(100).nullish(),
        number: vehicleNumber.optional(),
        wheelsetsOutgoing: z
          .array(z.object({ number: vehicleNumber, assetId: z.string().max(100).nullish() }))
          .min(WHEELSETS_PER_WAGON.min)
          .max(WHEELSETS_PER_WAGON.max)
          // One wheelset is not mounted at two positions (the form says so before it sends the order).
          .superRefine((wheelsets, context) => {
            earlierSameNumbers(wheelsets.map((wheelset) => wheelset.number)).forEach((earlier, index) => {
              if (earlier >= 0) {
                context.addIssue({
                  code: 'custom',
                  path: [index, 'number'],
                  message: `the same wheelset as position ${earlier + 1}`,
                });
              }
            });
          }),
      })
      .optional(),
    wheelset: z.object({ number: vehicleNumber.optional(), assetId: z.string().max(100).nullish() }).optional(),
  })
  .refine((o) => o.type !== 'WAGON' || o.wagon !== undefined, { path: ['wagon'], message: 'required for WAGON' })
  .refine((o) => o.type !== 'WHEELSET' || o.wagon === undefined, { path: ['wagon'], message: 'only for WAGON' });
export type CreateOrderRequest = z.input<typeof createOrderRequestSchema>;

export const statusChangeRequestSchema = z.object({ status: orderStatusSchema });

/** The 12 digits of a vehicle number as typed, or '' when it is empty or not a valid number. */
const digitsOrEmpty = (raw: string | undefined) => {
  const result = validateVehicleNumber(raw ?? '');
  return result.ok ? result.digits : '';
};

/**
 * The values an order starts with (docs/requirements/orders.md#order-creation-payload): the wagon number on both sides
 * and the outgoing wheelsets, or the wheelset number on both sides. The server writes them as the order's first
 * activities; a browser shows them for an order created offline until the server has it.
 */
export function creationValues(request: CreateOrderRequest): { key: string; value: string }[] {
  const maintenanceNumber = digitsOrEmpty(request.maintenanceNumber);
  if (request.type === 'WAGON') {
    const wagonNumber = digitsOrEmpty(request.wagon?.number) || maintenanceNumber;
    return [
      ...(['in', 'out'] as const).map((side) => ({ key: CREATION_KEYS.wagonNumber(side), value: wagonNumber })),
      ...(request.wagon?.wheelsetsOutgoing ?? []).flatMap((wheelset, i) => [
        { key: CREATION_KEYS.outgoingWheelset(i, 'Position'), value: String(i + 1) },
        { key: CREATION_KEYS.outgoingWheelset(i, 'Wheelsetnumber'), value: digitsOrEmpty(wheelset.number) },
      ]),
    ];
  }
  const wheelsetNumber = digitsOrEmpty(request.wheelset?.number) || maintenanceNumber;
  return (['in', 'out'] as const).map((side) => ({ key: CREATION_KEYS.wheelsetNumber(side), value: wheelsetNumber }));
}
