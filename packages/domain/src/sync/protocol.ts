import { z } from 'zod';
import { MAX_DB_INTEGER } from '../constants.ts';
import {
  ALL_ACTIVITY_TYPES,
  type Activity,
  type ActivityType,
  DEFAULT_ACTIVITY_TYPE,
  SENT_STATES,
} from '../orders/activity.ts';

/*
 * The sync protocol between a device and the server, in one place: what goes over the wire, and how a wire message
 * becomes the device's `Activity` and back. Read this file to learn the protocol; docs/requirements/sync.md tells the
 * rules it serves (the data flow of an edit, undo, conflicts, a restored server).
 *
 * The exchange (every call under /api/v1, bearer token):
 * - push:   POST activity {ActivityPush} → ActivityPushResult; POST activity/batch {activities} → results in order.
 *           A repeated id answers its first result; the same id with other content is 409 ACTIVITY_ID_REUSED.
 *           Status changes go through POST orders/{id}/status {status, id} instead (role rules).
 * - revert: PATCH activity/{orderId}/{counter}/reverted {RevertRequest} → ActivityPushResult; 409
 *           REVERT_TARGET_MOVED when the counter holds another change than the id names.
 * - pull:   GET activity/{orderId}/last?{ActivityLastQuery} → ActivityLast; then GET activity/{orderId}?after=N →
 *           ServerActivity[] (counters are dense per order, so the first gap is where a pull starts).
 * - judge:  GET activity/{orderId}/conflicts → Conflict[] (the domain's openConflicts, on the server's log).
 * - every signed-in answer carries the database identity and generation (SERVER_IDENTITY_HEADERS).
 *
 * Versions. The server accepts both; a field a version lacks is absent, never guessed.
 * - 1 (the specification): push {oI, k, t, oV, c} with the browser's id; result {lm, co, mod}; server activities
 *   {…, re, mod, rs}; a revert by counter alone.
 * - 2 (collaboration without silent loss): pushes carry what their author had seen (`sn`) and their device (`dv`);
 *   server activities carry them and their author (`ai`, `au`); a revert names its change by id; `last` takes what
 *   the device holds and answers the identity and generation.
 */
export const PROTOCOL_VERSION = 2;

/** An activity on the wire, with the spec's short names (docs/requirements/sync.md#activity-shape). */
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

const UUID = z.regexes.uuid();
const isUuid = (value: unknown) => typeof value === 'string' && UUID.test(value);
const isInt = (value: unknown) => Number.isSafeInteger(value);
const isString = (value: unknown) => typeof value === 'string';
const orNull = (check: (value: unknown) => boolean) => (value: unknown) => value === null || check(value);
const orNullish = (check: (value: unknown) => boolean) => (value: unknown) => value == null || check(value);
const SERVER_ACTIVITY_FIELDS: Record<keyof ServerActivity, (value: unknown) => boolean> = {
  id: isUuid,
  oI: isUuid,
  k: isString,
  t: isString,
  oV: isString,
  c: isString,
  lm: isString,
  co: isInt,
  re: (value) => typeof value === 'boolean',
  mod: isString,
  rs: orNull(isInt),
  sn: orNullish(isInt),
  dv: orNullish(isString),
  ai: orNullish(isInt),
  au: orNullish(isString),
};
const serverActivityEntries = Object.entries(SERVER_ACTIVITY_FIELDS);

/**
 * Whether a pull's answer is a list of server activities: what `z.array(serverActivitySchema)` accepts (a test holds
 * them equal), judged in place. A browser runs zod without compiled checks (the app's content security policy
 * forbids eval), where checking and copying the 10,000 rows of a first load cost ~100–150 ms; this costs a few.
 * Unknown fields are kept in the objects (zod drops them); `fromServerActivity` reads only its own.
 */
export function isServerActivityList(value: unknown): value is ServerActivity[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        !Array.isArray(item) &&
        serverActivityEntries.every(([field, check]) => check((item as Record<string, unknown>)[field])),
    )
  );
}

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

const activityType = (type: string): ActivityType =>
  (ALL_ACTIVITY_TYPES as readonly string[]).includes(type) ? (type as ActivityType) : DEFAULT_ACTIVITY_TYPE;

/** A device's change as it is pushed. */
export function toPush(activity: Activity): ActivityPush {
  return {
    id: activity.id,
    oI: activity.orderId,
    k: activity.key,
    t: activity.activityType,
    oV: activity.outputValue,
    c: activity.created,
    ...(typeof activity.seen === 'number' ? { sn: activity.seen } : {}),
    ...(activity.device ? { dv: activity.device } : {}),
  };
}

/** A server activity as a device keeps it. The local counter only orders unsent changes, so pulled rows take 0. */
export function fromServerActivity(activity: ServerActivity): Activity {
  return {
    id: activity.id,
    orderId: activity.oI,
    key: activity.k,
    outputValue: activity.oV,
    activityType: activityType(activity.t),
    created: activity.c,
    lastModified: activity.lm,
    counter: activity.co,
    counterLocal: 0,
    lastModifier: activity.mod,
    reverted: activity.re,
    sent: SENT_STATES.SENT,
    restores: activity.rs,
    seen: activity.sn ?? null,
    device: activity.dv ?? null,
    authorId: activity.ai ?? null,
    ...(activity.au ? { author: activity.au } : {}),
  };
}

/**
 * The fields of a device's row that the server decides; the others (owner, local counter, attempted) stay the
 * device's. Absent and null say the same: normalised, a row pushed from a device compares equal to the server's copy.
 */
export const serverFields = ({
  counter,
  lastModified,
  lastModifier,
  reverted,
  sent,
  restores,
  seen,
  device,
  authorId,
  author,
}: Activity) => ({
  counter,
  lastModified,
  lastModifier,
  reverted,
  sent,
  restores: restores ?? null,
  seen: seen ?? null,
  device: device ?? null,
  authorId: authorId ?? null,
  author: author ?? '',
});
