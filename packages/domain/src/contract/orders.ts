import { z } from 'zod';
import { MAX_DB_INTEGER } from '../constants.ts';
import { ALL_ACTIVITY_TYPES } from '../orders/activity.ts';
import { ALL_ORDER_STATUSES, ALL_ORDER_TYPES } from '../orders/status.ts';
import { CREATION_KEYS } from '../orders/paths.ts';
import { isValidVehicleNumber, validateVehicleNumber } from '../orders/vehicle-number.ts';

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
          .max(WHEELSETS_PER_WAGON.max),
      })
      .optional(),
    wheelset: z.object({ number: vehicleNumber.optional(), assetId: z.string().max(100).nullish() }).optional(),
  })
  .refine((o) => o.type !== 'WAGON' || o.wagon !== undefined, { path: ['wagon'], message: 'required for WAGON' })
  .refine((o) => o.type !== 'WHEELSET' || o.wagon === undefined, { path: ['wagon'], message: 'only for WAGON' });
export type CreateOrderRequest = z.input<typeof createOrderRequestSchema>;

export const statusChangeRequestSchema = z.object({ status: orderStatusSchema });

/** An activity on the wire, with the spec's short names (orders §3). */
export const activityPushSchema = z.object({
  id: z.uuid(),
  oI: z.uuid(),
  k: z.string().min(1).max(500),
  t: z.enum(ALL_ACTIVITY_TYPES as [string, ...string[]]).default('XML_MODIFICATION'),
  /** The value as JSON text. */
  oV: z.string().max(100_000),
  c: z.iso.datetime({ offset: true }),
  /** Seen: the counter of the field's value its author saw when the edit began (0: empty); for conflicts. */
  sn: z.number().int().min(0).max(MAX_DB_INTEGER).nullish(),
  /** Device: the browser the change was made in (a device always sees its own earlier changes). */
  dv: z.uuid().nullish(),
});
export type ActivityPush = z.input<typeof activityPushSchema>;

export const activityPushResultSchema = z.object({
  id: z.uuid(),
  lm: z.string(),
  co: z.number().int(),
  mod: z.string(),
});
export type ActivityPushResult = z.infer<typeof activityPushResultSchema>;

export const activityBatchSchema = z.object({ activities: z.array(activityPushSchema).min(1).max(1000) });

export const serverActivitySchema = z.object({
  id: z.uuid(),
  oI: z.uuid(),
  k: z.string(),
  t: z.string(),
  oV: z.string(),
  c: z.string(),
  lm: z.string(),
  co: z.number().int(),
  re: z.boolean(),
  mod: z.string(),
  /** Set when the server appended this activity to carry out the revert of that counter. */
  rs: z.number().int().nullable(),
  sn: z.number().int().nullish(),
  dv: z.string().nullish(),
  /** Author: the id and name of the user who sent the change (beside conflicts and in the history). */
  ai: z.number().int().nullish(),
  au: z.string().nullish(),
});
export type ServerActivity = z.infer<typeof serverActivitySchema>;

/**
 * The body of `PATCH activity/{orderId}/{counter}/reverted`: the id of the change the client means. The server
 * refuses (409 REVERT_TARGET_MOVED) when that counter holds another change — after a restored backup a counter may
 * belong to someone else's change. Without a body (older clients) the counter alone decides.
 */
export const revertRequestSchema = z.object({ id: z.uuid() });

/**
 * What a client knows of an order, sent with `GET activity/{orderId}/last` so the server can tell whether it lost
 * what it had acknowledged (a restored backup): the highest counter up to which the client holds every change, the
 * id of the change it holds at that counter, and the generation it was told.
 */
export const activityLastQuerySchema = z.object({
  known: z.coerce.number().int().min(0).max(MAX_DB_INTEGER).optional(),
  knownId: z.uuid().optional(),
  generation: z.coerce.number().int().min(0).max(MAX_DB_INTEGER).optional(),
});

/** The database's identity and generation, carried by every signed-in answer (headers) and by `last`. */
export const serverIdentitySchema = z.object({ database: z.uuid(), generation: z.number().int() });
export type ServerIdentity = z.infer<typeof serverIdentitySchema>;
export const SERVER_IDENTITY_HEADERS = { database: 'x-vers-database', generation: 'x-vers-generation' } as const;

export const activityLastSchema = z.object({
  last: z.number().int(),
  database: z.uuid().optional(),
  generation: z.number().int().optional(),
});

/** An open conflict as the server judges it (the domain's `openConflicts`), by activity ids and counters. */
export const conflictSchema = z.object({
  k: z.string(),
  replaced: z.object({ id: z.uuid(), co: z.number().int() }),
  by: z.object({ id: z.uuid(), co: z.number().int() }),
});

/** The 12 digits of a vehicle number as typed, or '' when it is empty or not a valid number. */
const digitsOrEmpty = (raw: string | undefined) => {
  const result = validateVehicleNumber(raw ?? '');
  return result.ok ? result.digits : '';
};

/**
 * The values an order starts with (orders §3): the wagon number on both sides and the outgoing wheelsets, or the
 * wheelset number on both sides. The server writes them as the order's first activities; a browser shows them for
 * an order created offline until the server has it.
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
