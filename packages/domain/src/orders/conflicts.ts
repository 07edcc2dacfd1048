import { valueOf } from '../catalogue/values.ts';
import {
  ACTIVITY_TYPES,
  type Activity,
  compareActivities,
  contiguousCounter,
  effectiveActivities,
  isSameOrBelow,
  isUnsent,
  parseOutputValue,
} from './activity.ts';

/**
 * A write that replaced a value its author had not seen (docs/requirements/sync.md#data-flow-conflicts): the value that
 * stood, and the change that replaced it. Shown to everyone who opens the order until someone decides.
 */
export interface Conflict {
  key: string;
  /** The change whose value stood when `by` arrived, unseen by `by`'s author. */
  replaced: Activity;
  /** The change that replaced it. */
  by: Activity;
}

const shownValue = (activity: Activity) =>
  activity.activityType === ACTIVITY_TYPES.XML_DELETE ? null : valueOf(parseOutputValue(activity.outputValue));

const sameValue = (a: Activity, b: Activity) => JSON.stringify(shownValue(a)) === JSON.stringify(shownValue(b));

const judged = (activity: Activity) => typeof activity.seen === 'number';

/**
 * Whether `change`'s author had seen `earlier` when the edit began: it came from the same browser (a device always
 * shows its own earlier changes, sent or not), or the server had given it a counter no higher than the one the
 * author had seen of the field. Device clocks play no part.
 */
function hadSeen(change: Activity, earlier: Activity): boolean {
  if (earlier.device && earlier.device === change.device) return true;
  return judged(change) && !isUnsent(earlier) && earlier.counter <= (change.seen as number);
}

/**
 * The open conflicts of an order, oldest first: every change (`by`) that replaced the standing value of its field
 * with another value while its author had not seen that value (`replaced`), as long as no later change of the field
 * was made by someone who had seen both. Such a later change is the decision: keeping either value, or any new one,
 * is a change like any other, so the history keeps both. Writing the same value is no conflict; reverted and refused
 * changes take no part; changes whose author's view is unknown (`seen` unset) neither make nor end a conflict.
 *
 * The same function runs in the browser (over the device's rows, unsent ones on top) and on the server, and the
 * answer depends only on the log: counters, `seen`, devices — so every device of the order shows the same conflicts
 * once it holds the same log.
 */
export function openConflicts(activities: readonly Activity[]): Conflict[] {
  const byKey = new Map<string, FieldLog>();
  for (const change of effectiveActivities(activities)) {
    if (change.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) continue;
    // Removing a list entry removes its fields: they start empty again if the entry comes back.
    if (change.activityType === ACTIVITY_TYPES.XML_DELETE) {
      for (const key of byKey.keys()) if (key !== change.key && isSameOrBelow(key, change.key)) byKey.delete(key);
    }
    byKey.set(change.key, fieldStep(byKey.get(change.key), change));
  }
  return [...byKey.values()].flatMap((field) => field.open).sort((a, b) => compareActivities(a.by, b.by));
}

/** A field's log as the conflict rule reads it: the change that stands and the field's open conflicts, oldest first. */
export interface FieldLog {
  standing: Activity;
  open: readonly Conflict[];
}

/**
 * One field change (not a status change) applied to its field's log: the step of `openConflicts`. A change by someone
 * who had seen both values of an open conflict decides it; a change that replaces a value its author had not seen
 * (with another value) opens one. Answers a new log; the one given is not changed.
 */
export function fieldStep(field: FieldLog | undefined, change: Activity): FieldLog {
  let open = field?.open ?? [];
  if (judged(change) || change.device) {
    open = open.filter((conflict) => !(hadSeen(change, conflict.by) && hadSeen(change, conflict.replaced)));
  }
  const standing = field?.standing;
  if (standing && judged(change) && !hadSeen(change, standing) && !sameValue(standing, change)) {
    open = [...open, { key: change.key, replaced: standing, by: change }];
  }
  return { standing: change, open };
}

/**
 * The `seen` of a new change of `key` made while `shown` was on screen (the change whose value the field showed when
 * the edit began; undefined for an empty field): its server counter, or for a change of this device not yet sent,
 * what that one had seen.
 */
export function seenOf(shown: Activity | undefined): number {
  if (!shown) return 0;
  return isUnsent(shown) ? (shown.seen ?? 0) : shown.counter;
}

/**
 * `seen` is a horizon: a change "has seen" every counter up to it. So it never goes past the counter up to which the
 * device holds every change: a device may hold its own change at counter 15 while another's at 13 never reached it.
 *
 * The `seen` of a change of `key`: what the user saw when the edit began. `shownStanding` says the field still
 * showed the value that stands now (the usual case); when another value arrived while the user typed (a pull does
 * not overwrite a draft), the user saw what stood before it.
 */
export function seenForEdit(activities: readonly Activity[], key: string, shownStanding: boolean): number {
  return seenForEditGiven(
    activities,
    { standing: standingChanges(activities).get(key), contiguous: contiguousCounter(activities) },
    key,
    shownStanding,
  );
}

/**
 * `seenForEdit` with the field's standing change and the order's contiguous counter already known (the editor keeps
 * them in its fold, `foldOrder`), so an edit need not sort the order's log again.
 */
export function seenForEditGiven(
  activities: readonly Activity[],
  known: { standing: Activity | undefined; contiguous: number },
  key: string,
  shownStanding: boolean,
): number {
  const { standing } = known;
  if (!standing) return 0;
  const shown = shownStanding
    ? seenOf(standing)
    : activities.reduce(
        (highest, activity) =>
          activity.key === key && !isUnsent(activity) && activity.counter < standing.counter
            ? Math.max(highest, activity.counter)
            : highest,
        0,
      );
  return Math.min(shown, known.contiguous);
}

/**
 * The `seen` of a decision on a field's conflict: every server counter this device holds for the field, so the
 * decision has seen both values of every conflict it shows.
 */
export function seenAll(
  activities: readonly Activity[],
  key: string,
  contiguous: number = contiguousCounter(activities),
): number {
  const held = activities.reduce(
    (highest, activity) =>
      activity.key === key && !isUnsent(activity) ? Math.max(highest, activity.counter) : highest,
    0,
  );
  return Math.min(held, contiguous);
}

/** The change whose value a field shows: the newest change of that key in effect (undefined when it is empty). */
export function standingChanges(activities: readonly Activity[]): Map<string, Activity> {
  const standing = new Map<string, Activity>();
  for (const activity of effectiveActivities(activities)) {
    if (activity.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) continue;
    if (activity.activityType === ACTIVITY_TYPES.XML_DELETE) {
      for (const key of standing.keys()) if (isSameOrBelow(key, activity.key)) standing.delete(key);
    }
    standing.set(activity.key, activity);
  }
  return standing;
}

/**
 * Every change of the given fields, newest first — reverted, refused and unsent ones included, each as it was
 * recorded: the field's audit trail, read from the activity log alone.
 */
export function fieldHistory(activities: readonly Activity[], keys: readonly string[]): Activity[] {
  const wanted = new Set(keys);
  return activities.filter((activity) => wanted.has(activity.key)).sort((a, b) => compareActivities(b, a));
}

/** The value a history entry or a note shows: the attribute's value, null for a cleared field. */
export function changeValue(activity: Activity): unknown {
  return shownValue(activity);
}
