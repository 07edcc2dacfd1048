import { isOrderStatus, type OrderStatus } from './status.ts';

/**
 * Kinds of order result (docs/requirements/sync.md#activity-types). XML_MODIFICATION is the default kind of a field
 * change.
 */
export const ACTIVITY_TYPES = {
  ACTIVITY: 'ACTIVITY',
  XML_MODIFICATION: 'XML_MODIFICATION',
  XML_DELETE: 'XML_DELETE',
  ORDER_STATUS_MODIFICATION: 'ORDER_STATUS_MODIFICATION',
} as const;

export type ActivityType = (typeof ACTIVITY_TYPES)[keyof typeof ACTIVITY_TYPES];

export const ALL_ACTIVITY_TYPES: readonly ActivityType[] = Object.values(ACTIVITY_TYPES);

export const DEFAULT_ACTIVITY_TYPE: ActivityType = ACTIVITY_TYPES.XML_MODIFICATION;

/** The server counter of an activity not yet sent: "the maximum number" in docs/requirements/sync.md#activity-shape. */
export const UNSENT_COUNTER = Number.MAX_SAFE_INTEGER;

/** Local counters start at 0 and rise by 1 (docs/requirements/sync.md#activity-shape). */
export const FIRST_COUNTER_LOCAL = 0;

export const SENT_STATES = {
  UNSENT: 0,
  SENT: 1,
  /** The server answered 404: it does not know the order. Such activities are skipped. */
  ORDER_UNKNOWN: 2,
  /**
   * The server refused the change for good (400: a value that does not fit the field, a path it does not know).
   * It never takes effect but stays on the device with its reason (`refusal`) for the user to see.
   */
  REFUSED: 3,
} as const;

export type SentState = (typeof SENT_STATES)[keyof typeof SENT_STATES];

/**
 * One order result as stored locally (docs/requirements/sync.md#activity-shape); the server's short form is mapped to
 * this elsewhere.
 */
export interface Activity {
  /** UUID made by the browser when the change was made; lets the server recognise a retried send. */
  id: string;
  orderId: string;
  /** JSON path such as `$.Body.Wagen.technicalWaggonIncoming.Waggonnummer`, with `[0]` for list entries. */
  key: string;
  /** JSON text of the value. */
  outputValue: string;
  activityType: ActivityType;
  /** ISO timestamp of the change. */
  created: string;
  lastModified?: string;
  /** Server counter; UNSENT_COUNTER until the server has assigned one. */
  counter: number;
  counterLocal: number;
  lastModifier?: string;
  reverted: boolean;
  sent: SentState;
  /**
   * Set on activities the server appended to carry out a revert (the reverted counter). They carry a value but
   * are nobody's change, so an undo passes over them.
   */
  restores?: number | null;
  /** Local only: the id of the user who made the change on this device; only their session sends it. */
  owner?: number;
  /**
   * What the change's author had seen of the field when the edit began: the server counter of the value shown then
   * (0 for an empty field). The conflict rule (conflicts.ts) reads it; null or absent (changes from before it was
   * kept) is never judged.
   */
  seen?: number | null;
  /**
   * The browser the change was made in (a UUID kept per browser): a device always sees its own earlier changes,
   * even before the server has given them counters. Null for changes the server made itself.
   */
  device?: string | null;
  /** Who made the change, as the server knows them (user id and name); unset on changes not yet sent. */
  authorId?: number | null;
  author?: string;
  /**
   * Local only: a push of this change has started. Without an answer the browser cannot know whether the server
   * has it, so an undo must revert it on the server rather than only delete it here.
   */
  attempted?: boolean;
  /** Local only: why the server did not apply the change (sent REFUSED or ORDER_UNKNOWN, or a done order). */
  refusal?: Refusal;
}

/** A server's answer that keeps a change from taking effect, kept beside the change for the user. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  /** ISO time of the answer. */
  at: string;
}

export interface OrderState {
  /** JSON path → parsed value, the latest change winning. Status changes are not values and are not here. */
  values: Record<string, unknown>;
  /** The newest status change's status, null when there is none. */
  status: OrderStatus | null;
  /** Highest server counter among the activities (0 if none), for asking the server what is missing. */
  lastCounter: number;
}

export function isUnsent(activity: Activity): boolean {
  return activity.counter >= UNSENT_COUNTER;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Fold order: sent activities by server counter, then unsent ones by local counter on top, whatever their
 * creation times (a clock may be wrong; the counters are not). Ties are broken on every field the fold reads, so
 * the order is total and the result never depends on the order the activities were loaded in.
 */
export function compareActivities(a: Activity, b: Activity): number {
  return (
    Number(isUnsent(a)) - Number(isUnsent(b)) ||
    (isUnsent(a) ? 0 : a.counter - b.counter) ||
    a.counterLocal - b.counterLocal ||
    compareText(a.created, b.created) ||
    compareText(a.id, b.id) ||
    compareText(a.key, b.key) ||
    compareText(a.activityType, b.activityType) ||
    compareText(a.outputValue, b.outputValue)
  );
}

/** Reverted changes are undone, and changes the server refused (or whose order it did not know) never took effect. */
export function takesEffect(activity: Activity): boolean {
  return !activity.reverted && activity.sent !== SENT_STATES.ORDER_UNKNOWN && activity.sent !== SENT_STATES.REFUSED;
}

/** The activities that make up the order's state, in the order they apply. */
export function effectiveActivities(activities: readonly Activity[]): Activity[] {
  return activities.filter(takesEffect).sort(compareActivities);
}

/** A malformed value is kept as its text: one bad record must not make an order unreadable. */
export function parseOutputValue(outputValue: string): unknown {
  try {
    return JSON.parse(outputValue);
  } catch {
    return outputValue;
  }
}

/** True for the key itself and every path below it (`key.Child`, `key[0]`), not for `keyOther`. */
export function isSameOrBelow(path: string, key: string): boolean {
  return path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[`);
}

/**
 * The order's state from its activities (docs/requirements/sync.md#data-flow-pull). The same function runs in the
 * browser and on the server, so both see the same order.
 */
export function foldActivities(
  activities: readonly Activity[],
  /** How a row's value text becomes its value; a caller may pass a cached parse (the editor refolds often). */
  parse: (activity: Activity) => unknown = (activity) => parseOutputValue(activity.outputValue),
): OrderState {
  const values = new Map<string, unknown>();
  let status: OrderStatus | null = null;
  for (const activity of effectiveActivities(activities)) {
    switch (activity.activityType) {
      case ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION: {
        // Accept `"IN_WORK"` as well as a bare IN_WORK; an unknown status is ignored, not shown.
        const next = parse(activity);
        if (isOrderStatus(next)) status = next;
        break;
      }
      case ACTIVITY_TYPES.XML_DELETE:
        for (const path of [...values.keys()]) {
          if (isSameOrBelow(path, activity.key)) values.delete(path);
        }
        break;
      default:
        values.set(activity.key, parse(activity));
    }
  }
  // Reverted activities still hold their counter on the server, so they count: otherwise they would be
  // fetched again on every pull.
  const lastCounter = activities.reduce(
    (highest, activity) => (isUnsent(activity) ? highest : Math.max(highest, activity.counter)),
    0,
  );
  // fromEntries defines own properties, so even a key like "__proto__" cannot touch the prototype.
  return { values: Object.fromEntries(values), status, lastCounter };
}

/** The local counter for the next change of an order: one above the highest so far, FIRST_COUNTER_LOCAL first. */
export function nextCounterLocal(activities: readonly Activity[]): number {
  return activities.reduce((next, activity) => Math.max(next, activity.counterLocal + 1), FIRST_COUNTER_LOCAL);
}

export type UndoAction = { kind: 'delete'; id: string } | { kind: 'revert'; id: string };

/** A change a user made: not a status change, not an activity the server appended to carry out a revert. */
export function isFieldChange(activity: Activity): boolean {
  return (
    activity.activityType !== ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION &&
    (activity.restores === undefined || activity.restores === null)
  );
}

/**
 * What "undo the last change" does (docs/requirements/sync.md#undo, docs/requirements/sync.md#data-flow-undo): the
 * newest change still in effect that `isMine` accepts (the signed-in user's own, made on this device) is deleted when
 * it never left the browser, or marked reverted (and sent as a revert naming it by id) when the server has it — or may
 * have it: a push whose answer was lost. Another user's change is never the target, whatever came last. Status changes
 * are left out: they go through the status dialog and the server's status call, which an undo cannot take back.
 */
export function undoLast(activities: readonly Activity[], isMine: (activity: Activity) => boolean): UndoAction | null {
  return undoLastOf(effectiveActivities(activities), isMine);
}

/** `undoLast` over the activities in effect, already in fold order (`effectiveActivities`, or a kept fold's). */
export function undoLastOf(effective: readonly Activity[], isMine: (activity: Activity) => boolean): UndoAction | null {
  let last: Activity | undefined;
  for (let i = effective.length - 1; i >= 0 && !last; i--) {
    const activity = effective[i]!;
    if (isFieldChange(activity) && isMine(activity)) last = activity;
  }
  if (!last) return null;
  return isUnsent(last) && !last.attempted ? { kind: 'delete', id: last.id } : { kind: 'revert', id: last.id };
}

/**
 * A sent activity (or one whose push may have reached the server) after undo: reverted, and unsent until the
 * revert has reached the server.
 */
export function markReverted(activity: Activity): Activity {
  return { ...activity, reverted: true, sent: SENT_STATES.UNSENT };
}

/**
 * The highest counter up to which this device has every server activity. Not simply the highest local counter:
 * after a push a device may hold counter 15 while 12 to 14 (another tablet's changes) were never pulled.
 * Server counters are dense per order, so the first gap is where the pull starts.
 */
export function contiguousCounter(rows: readonly Activity[]): number {
  const counters = new Set(rows.filter((row) => row.counter < UNSENT_COUNTER).map((row) => row.counter));
  let known = 0;
  while (counters.has(known + 1)) known += 1;
  return known;
}
