import {
  addEntryWrites,
  collectionEntries,
  entryScope,
  perEntrySummary,
  rootScope,
  type Values,
  type Write,
} from '../catalogue/layout.ts';
import { v5 as uuidV5 } from 'uuid';
import { writeIssue } from '../catalogue/resolve.ts';
import { CATALOGUE, WAGON_WHEELSETS, WHEELSET_DIRECTIONS, type WheelsetDirection } from '../catalogue/tabs.ts';
import { isFilled, valueOf } from '../catalogue/values.ts';
import { isValidDateText } from '../dates.ts';
import { type Activity, effectiveActivities, isSameOrBelow, isUnsent, parseOutputValue } from './activity.ts';
import { ORDER_ROOTS } from './paths.ts';
import type { OrderType } from './status.ts';
import { validateVehicleNumber } from './vehicle-number.ts';

/*
 * The wheelset swap of a wagon (the spec's PATCH orders/{id}, docs/requirements/orders.md#wheelset-swap): mounting a
 * wheelset at a position, dismounting it, turning it. A swap is ordinary value changes of the position's outgoing
 * wheelset entry, made by this one function for the server's call and for the browser's offline path alike, so that
 * history, undo, conflicts and the exactly-once delivery of activities hold for it as for every edit.
 */

/** The wheelset positions of a wagon: 1 to 8 (docs/requirements/validation.md#wheelsets-per-wagon). */
/**
 * The id of the `index`-th change of a swap: a name-based UUID (RFC 9562 version 5) of the index in the namespace of
 * the request's id. The server gives a swap's activities these ids, and a device that could not learn whether its
 * call landed records the same writes under the same ids: sent later, they are answered with the server's first
 * result instead of being stored twice.
 */
export function wheelsetSwapActivityId(requestId: string, index: number): string {
  return uuidV5(String(index), requestId);
}

export const WHEELSET_POSITIONS = { min: 1, max: 8 } as const;

export interface WheelsetSwapRequest {
  position: number;
  /** Mount this wheelset; null dismounts; absent keeps the wheelset and only sets the direction (a turn). */
  wheelset?: { number: string; assetId?: string | null | undefined } | null | undefined;
  /** The direction; a mount without one mounts NORMAL. */
  direction?: WheelsetDirection | undefined;
  /** The outgoing mount date `YYYY-MM-DD` of a mount; the day of the swap (`today`) when absent. */
  mountDate?: string | undefined;
}

/** The wheelset a position holds: the call's answer. */
export interface MountedWheelset {
  position: number;
  wheelset: { assetId: string | null; number: string } | null;
  direction: WheelsetDirection | null;
}

/** Why a swap is refused; the codes are the API's (contract/errors.ts). */
export type WheelsetSwapProblem =
  | { code: 'WHEELSET_ORDER' }
  | { code: 'WHEELSET_POSITION' }
  | { code: 'CHECK_NUMBER' }
  | { code: 'VALIDATION'; message: string }
  | { code: 'WHEELSET_MOUNTED_ELSEWHERE'; position: number }
  | { code: 'WHEELSET_NOT_MOUNTED' };

export type WheelsetSwapResult =
  { ok: true; writes: Write[]; answer: MountedWheelset } | { ok: false; problem: WheelsetSwapProblem };

/** The fields of a wagon's wheelset entry the swap writes. */
const FIELD = { number: 'Wheelsetnumber', assetId: 'AssetId', direction: 'Direction', mountDate: 'MountDate' } as const;

const root = rootScope('WAGON');

const isDirection = (value: unknown): value is WheelsetDirection =>
  typeof value === 'string' && (WHEELSET_DIRECTIONS as readonly string[]).includes(value);

const text = (stored: unknown): string | null => {
  const value = valueOf(stored);
  return typeof value === 'string' && value !== '' ? value : null;
};

/** The outgoing scope (`...Wheelset[3]`) of the entry of a position, or null when the outgoing side has none. */
function outgoingEntry(values: Values, position: number): string | null {
  const entry = collectionEntries(values, root, WAGON_WHEELSETS).find((e) => e.value === String(position));
  return entry?.exists.out ? entryScope(root, WAGON_WHEELSETS, entry).out : null;
}

/** The wheelset mounted at a position as the outgoing values hold it. */
export function mountedWheelset(values: Values, position: number): MountedWheelset {
  const scope = outgoingEntry(values, position);
  const number = scope ? text(values[`${scope}.${FIELD.number}`]) : null;
  const direction = scope ? valueOf(values[`${scope}.${FIELD.direction}`]) : null;
  return {
    position,
    wheelset: number ? { assetId: text(values[`${scope}.${FIELD.assetId}`]), number } : null,
    direction: number && isDirection(direction) ? direction : null,
  };
}

/**
 * The outgoing wheelset number of each position (1..8) that has one, with its key, in the order of the positions: one
 * read of the entries, as `mountedWheelset` makes per position (the editor asks at every render of a position).
 */
function mountedNumbers(values: Values): { position: number; key: string; number: string }[] {
  const mounted: { position: number; key: string; number: string }[] = [];
  for (const entry of collectionEntries(values, root, WAGON_WHEELSETS)) {
    const position = Number(entry.value);
    if (!entry.exists.out || String(position) !== entry.value) continue;
    if (position < WHEELSET_POSITIONS.min || position > WHEELSET_POSITIONS.max) continue;
    const key = `${entryScope(root, WAGON_WHEELSETS, entry).out}.${FIELD.number}`;
    const number = text(values[key]);
    if (number) mounted.push({ position, key, number });
  }
  return mounted.sort((a, b) => a.position - b.position);
}

/**
 * The other positions whose mounted wheelset has this number. A swap refuses such a mount, but two devices may each
 * mount the same wheelset offline at two positions (each checks only what it holds): both changes are kept, and the
 * editor warns at every position concerned until one of them is swapped or dismounted.
 */
export function positionsAlsoMounting(values: Values, number: string, position: number): number[] {
  return mountedNumbers(values)
    .filter((mounted) => mounted.position !== position && mounted.number === number)
    .map((mounted) => mounted.position);
}

/**
 * The keys of the outgoing wheelset number of each position whose wheelset is mounted at an earlier position too: one
 * key per double, the later position's. A release to service is not issued while there is one (sign-off.ts).
 */
export function wheelsetsMountedTwice(values: Values): string[] {
  const seen = new Set<string>();
  const keys: string[] = [];
  for (const { key, number } of mountedNumbers(values)) {
    if (seen.has(number)) keys.push(key);
    seen.add(number);
  }
  return keys;
}

/** The values after the writes, as the fold would make them (a stored value is `{value}` enough to be read). */
export function applyWrites(values: Values, writes: readonly Write[]): Values {
  const after: Record<string, unknown> = { ...values };
  for (const write of writes) {
    if (write.value !== null) after[write.key] = { value: write.value };
    else for (const key of Object.keys(after)) if (isSameOrBelow(key, write.key)) delete after[key];
  }
  return after;
}

/** Where a wheelset template's key (a wheelset order's incoming value) goes in a wagon's entry, or null. */
function importedKey(key: string, scope: string): string | null {
  const prefix = `${ORDER_ROOTS.WHEELSET.in}.`;
  if (!key.startsWith(prefix)) return null;
  const relative = key.slice(prefix.length);
  // The position and the number are the swap's own; the rest is what the template says of the wheelset.
  if (relative === 'Position' || relative === FIELD.number) return null;
  return `${scope}.${relative}`;
}

/**
 * The writes of a swap from the order's current values, and the wheelset the position holds after them
 * (docs/requirements/orders.md#wheelset-swap):
 * - mount: the outgoing `Wheelsetnumber` (12 digits), `AssetId` (or cleared), `Direction` (NORMAL unless given) and
 *   `MountDate` (the day unless given); a position without an entry gets one first, as the editor adds one; the values
 *   of a wheelset template (`imported`, an XML import's incoming values) become the entry's outgoing values;
 * - dismount: the number, asset id and direction cleared, the position stays (nothing to write on an empty one);
 * - turn: the direction of the wheelset mounted there.
 */
export function wheelsetSwap(
  type: OrderType,
  values: Values,
  request: WheelsetSwapRequest,
  options: { today: string; imported?: readonly { key: string; value: unknown }[] },
): WheelsetSwapResult {
  const refuse = (problem: WheelsetSwapProblem): WheelsetSwapResult => ({ ok: false, problem });
  if (type !== 'WAGON') return refuse({ code: 'WHEELSET_ORDER' });
  const { position } = request;
  if (!Number.isInteger(position) || position < WHEELSET_POSITIONS.min || position > WHEELSET_POSITIONS.max) {
    return refuse({ code: 'WHEELSET_POSITION' });
  }
  if (request.direction !== undefined && !isDirection(request.direction)) {
    return refuse({ code: 'VALIDATION', message: `direction must be one of ${WHEELSET_DIRECTIONS.join(', ')}` });
  }
  const writes: Write[] = [];
  let scope = outgoingEntry(values, position);
  const clear = (field: string) => {
    if (scope && isFilled(values[`${scope}.${field}`])) writes.push({ key: `${scope}.${field}`, value: null });
  };
  const wheelset = request.wheelset;
  if (wheelset === null) {
    if (request.direction !== undefined) return refuse({ code: 'VALIDATION', message: 'a dismount has no direction' });
    clear(FIELD.number);
    clear(FIELD.assetId);
    clear(FIELD.direction);
  } else if (wheelset === undefined) {
    if (request.direction === undefined) {
      return refuse({ code: 'VALIDATION', message: 'give a wheelset, null (dismount) or a direction (turn)' });
    }
    if (mountedWheelset(values, position).wheelset === null) return refuse({ code: 'WHEELSET_NOT_MOUNTED' });
    writes.push({ key: `${scope}.${FIELD.direction}`, value: request.direction });
  } else {
    const number = validateVehicleNumber(wheelset.number);
    if (!number.ok || number.digits === '') return refuse({ code: 'CHECK_NUMBER' });
    const mountDate = request.mountDate ?? options.today;
    if (!isValidDateText(mountDate)) return refuse({ code: 'VALIDATION', message: 'mountDate must be YYYY-MM-DD' });
    const elsewhere = positionsAlsoMounting(values, number.digits, position)[0];
    if (elsewhere !== undefined) return refuse({ code: 'WHEELSET_MOUNTED_ELSEWHERE', position: elsewhere });
    if (!scope) {
      const entry = collectionEntries(values, root, WAGON_WHEELSETS).find((e) => e.value === String(position));
      if (entry) {
        // The entry is there on the incoming side only: the outgoing side gets its differentiator, as the editor does.
        const inner = entryScope(root, WAGON_WHEELSETS, entry);
        writes.push({ key: `${inner.out}.${WAGON_WHEELSETS.differentiator.path}`, value: String(position) });
      } else {
        const tab = CATALOGUE.WAGON.find((candidate) => candidate.perEntry === WAGON_WHEELSETS)!;
        writes.push(...addEntryWrites(values, perEntrySummary('WAGON', tab, values)!, String(position)));
      }
      scope = outgoingEntry(applyWrites(values, writes), position);
    }
    const entry = scope!;
    // A template's values first, so that the swap's own values win where the template names them too.
    for (const { key, value } of options.imported ?? []) {
      const target = importedKey(key, entry);
      if (target && value !== null && writeIssue('WAGON', target, value) === null) {
        writes.push({ key: target, value: value as Write['value'] });
      }
    }
    writes.push({ key: `${entry}.${FIELD.number}`, value: number.digits });
    if (wheelset.assetId) writes.push({ key: `${entry}.${FIELD.assetId}`, value: wheelset.assetId });
    else clear(FIELD.assetId);
    writes.push({ key: `${entry}.${FIELD.direction}`, value: request.direction ?? 'NORMAL' });
    writes.push({ key: `${entry}.${FIELD.mountDate}`, value: mountDate });
  }
  return { ok: true, writes, answer: mountedWheelset(applyWrites(values, writes), position) };
}

/** One wheelset a position held: from the change that mounted (or turned) it until the next one. */
export interface PositionHistoryEntry {
  wheelset: MountedWheelset['wheelset'];
  direction: WheelsetDirection | null;
  /** ISO time of the change that set it. */
  from: string;
  /** ISO time of the next change of the position; null while it holds. */
  until: string | null;
  /** The change that set it (its author, whether it is sent). */
  activity: Activity;
}

/** Keys of a change that may alter what a position holds: below the outgoing wheelset list. */
const OUTGOING_LIST = `${ORDER_ROOTS.WAGON.out}.${WAGON_WHEELSETS.path}`;

const sameMount = (a: Pick<MountedWheelset, 'wheelset' | 'direction'>, b: typeof a) =>
  a.wheelset?.number === b.wheelset?.number &&
  (a.wheelset?.assetId ?? null) === (b.wheelset?.assetId ?? null) &&
  a.direction === b.direction;

/**
 * The history of a wheelset position from the order's activities (docs/requirements/orders.md#wheelset-swap): every
 * wheelset (and direction) it held, oldest first, from when to when and by whose change. The writes of one action
 * (a mount writes number, direction and date at once) make one entry.
 */
export function positionHistory(activities: readonly Activity[], position: number): PositionHistoryEntry[] {
  const values = new Map<string, unknown>();
  const history: PositionHistoryEntry[] = [];
  let current: Pick<MountedWheelset, 'wheelset' | 'direction'> = { wheelset: null, direction: null };
  for (const activity of effectiveActivities(activities)) {
    if (activity.activityType === 'ORDER_STATUS_MODIFICATION') continue;
    if (activity.activityType === 'XML_DELETE') {
      for (const key of [...values.keys()]) if (isSameOrBelow(key, activity.key)) values.delete(key);
    } else {
      values.set(activity.key, parseOutputValue(activity.outputValue));
    }
    if (!activity.key.startsWith(OUTGOING_LIST) && !isSameOrBelow(OUTGOING_LIST, activity.key)) continue;
    const next = mountedWheelset(Object.fromEntries(values), position);
    if (sameMount(current, next)) continue;
    current = next;
    const last = history.at(-1);
    const sameAction =
      last !== undefined &&
      last.activity.created === activity.created &&
      (last.activity.authorId ?? null) === (activity.authorId ?? null) &&
      isUnsent(last.activity) === isUnsent(activity);
    if (sameAction) {
      history[history.length - 1] = { ...last, wheelset: next.wheelset, direction: next.direction };
      continue;
    }
    if (last) last.until = activity.created;
    history.push({ wheelset: next.wheelset, direction: next.direction, from: activity.created, until: null, activity });
  }
  return history;
}
