import {
  ACTIVITY_TYPES,
  type Activity,
  compareActivities,
  contiguousCounter,
  effectiveActivities,
  isSameOrBelow,
  isUnsent,
  type OrderState,
  parseOutputValue,
  takesEffect,
  type UndoAction,
  undoLastOf,
} from './activity.ts';
import { type Conflict, type FieldLog, fieldStep, seenAll, seenForEditGiven } from './conflicts.ts';
import { isOrderStatus } from './status.ts';

/*
 * The editor's fold of an order (docs/requirements/sync.md#data-flow-pull): the state, the change each field shows,
 * the open conflicts and the contiguous counter of its log, made in one pass over the log sorted once, and carried
 * forward by a new change of this device without reading or sorting the log again. Each part is the same as the
 * domain's function of the whole log (`foldActivities`, `standingChanges`, `openConflicts`, `contiguousCounter`):
 * the tests compare them on random logs, and the server keeps using those functions.
 */

/** How a row's value text becomes its value; the editor passes a cached parse. */
export type ParseValue = (activity: Activity) => unknown;

const parseRow: ParseValue = (activity) => parseOutputValue(activity.outputValue);

export interface OrderFold {
  /** Every row folded, in the order given (reverted, refused and unsent ones too). */
  readonly activities: readonly Activity[];
  /** The rows in effect, in the order they apply (`effectiveActivities`). */
  readonly effective: readonly Activity[];
  /** `foldActivities` of the rows. Unchanged values keep their identity when the fold is carried forward. */
  readonly state: OrderState;
  /** Per field key: the change that stands (`standingChanges`) and the field's open conflicts (`openConflicts`). */
  readonly fields: ReadonlyMap<string, FieldLog>;
  /** The open conflicts of the order by field key, each key's oldest first; keys without any are absent. */
  readonly conflicts: ReadonlyMap<string, readonly Conflict[]>;
  /** `contiguousCounter` of the rows. */
  readonly contiguous: number;
}

function openByKey(fields: ReadonlyMap<string, FieldLog>): Map<string, readonly Conflict[]> {
  const conflicts = new Map<string, readonly Conflict[]>();
  for (const [key, field] of fields) if (field.open.length > 0) conflicts.set(key, field.open);
  return conflicts;
}

/** Removing a list entry removes its fields (values, standing changes, their conflicts). */
function deleteBelow(fields: Map<string, FieldLog>, key: string): void {
  for (const path of fields.keys()) if (path !== key && isSameOrBelow(path, key)) fields.delete(path);
}

/** The fold of an order's rows, in any order. */
export function foldOrder(activities: readonly Activity[], parse: ParseValue = parseRow): OrderFold {
  const effective = effectiveActivities(activities);
  const values = new Map<string, unknown>();
  const fields = new Map<string, FieldLog>();
  let status: OrderState['status'] = null;
  for (const activity of effective) {
    switch (activity.activityType) {
      case ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION: {
        const next = parse(activity);
        if (isOrderStatus(next)) status = next;
        continue;
      }
      case ACTIVITY_TYPES.XML_DELETE:
        for (const path of [...values.keys()]) if (isSameOrBelow(path, activity.key)) values.delete(path);
        deleteBelow(fields, activity.key);
        break;
      default:
        values.set(activity.key, parse(activity));
    }
    fields.set(activity.key, fieldStep(fields.get(activity.key), activity));
  }
  const lastCounter = activities.reduce(
    (highest, activity) => (isUnsent(activity) ? highest : Math.max(highest, activity.counter)),
    0,
  );
  return {
    activities,
    effective,
    state: { values: Object.fromEntries(values), status, lastCounter },
    fields,
    conflicts: openByKey(fields),
    contiguous: contiguousCounter(activities),
  };
}

/**
 * The fold with one more row: a change of this device not yet sent that applies after every row in effect (a new
 * edit). Answers null for any other row (sent, not in effect, or one that sorts before another): then the whole log
 * is folded again. Unsent rows change neither the last nor the contiguous counter.
 */
export function extendFold(fold: OrderFold, activity: Activity, parse: ParseValue = parseRow): OrderFold | null {
  const last = fold.effective.at(-1);
  if (!isUnsent(activity) || !takesEffect(activity) || (last && compareActivities(last, activity) >= 0)) return null;
  const activities = [...fold.activities, activity];
  const effective = [...fold.effective, activity];
  if (activity.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) {
    const next = parse(activity);
    const status = isOrderStatus(next) ? next : fold.state.status;
    return { ...fold, activities, effective, state: { ...fold.state, status } };
  }
  // Spread and fromEntries define own properties: even a key like "__proto__" cannot touch the prototype.
  let values: Record<string, unknown>;
  const fields = new Map(fold.fields);
  if (activity.activityType === ACTIVITY_TYPES.XML_DELETE) {
    values = Object.fromEntries(
      Object.entries(fold.state.values).filter(([path]) => !isSameOrBelow(path, activity.key)),
    );
    deleteBelow(fields, activity.key);
  } else {
    values = { ...fold.state.values, ...Object.fromEntries([[activity.key, parse(activity)]]) };
  }
  const before = fields.get(activity.key);
  const field = fieldStep(before, activity);
  fields.set(activity.key, field);
  // Only a delete or a field with open conflicts before or after can change the order's conflicts.
  const unchanged =
    activity.activityType !== ACTIVITY_TYPES.XML_DELETE && field.open.length === 0 && !before?.open.length;
  return {
    activities,
    effective,
    state: { ...fold.state, values },
    fields,
    conflicts: unchanged ? fold.conflicts : openByKey(fields),
    contiguous: fold.contiguous,
  };
}

/** `seenForEdit` from a fold: what the user saw of `key` when the edit began. */
export function seenForEditIn(fold: OrderFold, key: string, shownStanding: boolean): number {
  return seenForEditGiven(
    fold.activities,
    { standing: fold.fields.get(key)?.standing, contiguous: fold.contiguous },
    key,
    shownStanding,
  );
}

/** `seenAll` from a fold: the `seen` of a decision on a field's conflict. */
export function seenAllIn(fold: OrderFold, key: string): number {
  return seenAll(fold.activities, key, fold.contiguous);
}

/** `undoLast` from a fold. */
export function undoLastIn(fold: OrderFold, isMine: (activity: Activity) => boolean): UndoAction | null {
  return undoLastOf(fold.effective, isMine);
}
