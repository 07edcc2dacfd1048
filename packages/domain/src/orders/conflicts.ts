import { valueOf } from '../catalogue/values.ts';
import {
  ACTIVITY_TYPES,
  type Activity,
  compareActivities,
  effectiveActivities,
  isUnsent,
  parseOutputValue,
} from './activity.ts';

/** A change of this user that another user's concurrent change replaced: shown beside the field, not dropped. */
export interface LostChange {
  /** The user's own change, which the server applied and then saw overwritten. */
  mine: Activity;
  /** The change that stands now. */
  winner: Activity;
}

const instant = (iso: string | undefined) => (iso ? Date.parse(iso) : Number.NaN);

const shownValue = (activity: Activity) =>
  activity.activityType === ACTIVITY_TYPES.XML_DELETE ? null : valueOf(parseOutputValue(activity.outputValue));

/**
 * The fields whose standing value is another user's, made while this user's own later-lost value was on its way:
 * the other change was made (its device time) before the server received this user's change, so its author
 * could not have seen it — two offline edits of one field. The server's order decides (the later counter wins);
 * this only tells the loser. A change made after seeing the other value is an ordinary correction, not a conflict.
 * Device clocks decide "before", so a badly wrong clock can hide or invent a note; the values never depend on it.
 */
export function lostChanges(activities: readonly Activity[], isMine: (activity: Activity) => boolean) {
  const latest = new Map<string, { standing: Activity; mine?: Activity }>();
  for (const activity of effectiveActivities(activities)) {
    if (activity.activityType === ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION) continue;
    const previous = latest.get(activity.key);
    const ownSent = isMine(activity) && !isUnsent(activity) ? activity : previous?.mine;
    latest.set(activity.key, { standing: activity, ...(ownSent ? { mine: ownSent } : {}) });
  }
  const lost = new Map<string, LostChange>();
  for (const [key, { standing, mine }] of latest) {
    if (!mine || standing === mine || isMine(standing) || isUnsent(standing)) continue;
    if (!(instant(standing.created) < instant(mine.lastModified))) continue;
    if (JSON.stringify(shownValue(standing)) === JSON.stringify(shownValue(mine))) continue;
    lost.set(key, { mine, winner: standing });
  }
  return lost;
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
