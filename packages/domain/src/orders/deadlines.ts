import dayjs from 'dayjs';
import { catalogueTemplates, resolveKey } from '../catalogue/resolve.ts';
import type { FieldDef, ValueSide } from '../catalogue/model.ts';
import { valueOf } from '../catalogue/values.ts';
import type { Values } from '../catalogue/layout.ts';
import type { Order } from '../contract/orders.ts';
import { isValidDateText } from '../dates.ts';
import { ORDER_ROOTS } from './paths.ts';
import { isOrderType, type OrderType } from './status.ts';

/*
 * Issue 23: the deadline list. The catalogue marks which date fields are due dates (`deadline: true`); this rule reads
 * them from an order's folded values. It invents no intervals: a due date is what the workshop entered. The server
 * (GET deadlines) and the browser offline (the device's orders) both use it.
 */

/** The windows of the deadline list's filter, in days from today. */
export const DEADLINE_WINDOWS = [30, 60, 90] as const;
export type DeadlineWindow = (typeof DEADLINE_WINDOWS)[number];

/**
 * Which deadlines to show: those due from today up to `within` days ahead (none when null), and the overdue ones when
 * `overdue` holds. Due today counts as 0 days left and is not overdue; due in exactly `within` days is inside.
 */
export interface DeadlineFilter {
  within: DeadlineWindow | null;
  overdue: boolean;
}

/** What the rule needs of an order: the list's order fields (an unknown type gives no deadlines). */
export type DeadlineOrder = Pick<Order, 'id' | 'type' | 'number' | 'wagonNumber' | 'wheelsetNumber'>;

export interface Deadline {
  orderId: string;
  orderType: OrderType;
  /** The workshop's order number. */
  orderNumber: string;
  /** The order's wagon number (wagon order) or wheelset number (wheelset order), as recorded at creation. */
  vehicleNumber: string | null;
  /** A deadline of one of a wagon's wheelsets: its position and the wheelset number recorded there. */
  wheelset?: { position: string; number: string | null };
  /** A deadline inside a collection entry (a tank test): the entry's code, e.g. `P`. */
  entry?: string;
  /** The field: its catalogue path below the side's root with `[]` for list indexes. */
  field: string;
  /** The field's translation key (`catalogue.field.…`). */
  labelKey: string;
  /** The side the due date was taken from: the outgoing one, or the incoming one while the outgoing side is empty. */
  side: ValueSide;
  /** The due date, YYYY-MM-DD; a month-and-year deadline is due on the last day of its month. */
  due: string;
  /** Calendar days from today to the due date: 0 due today, negative overdue. */
  daysLeft: number;
}

const INDEX = /\[\d+\]/g;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY_MS = 86_400_000;

const labelKeyOf = (field: FieldDef) => `catalogue.field.${field.label ?? field.path.split('.').at(-1)}`;

/** Every catalogue path (with `[]`) of an order type that is a deadline, with its field. */
function deadlineFields(type: OrderType): Map<string, FieldDef> {
  const found = new Map<string, FieldDef>();
  const root = ORDER_ROOTS[type].out;
  for (const template of catalogueTemplates(type)) {
    const field = resolveKey(type, `${root}.${template.replaceAll('[]', '[0]')}`)?.field;
    if (field?.deadline) found.set(template, field);
  }
  return found;
}

const DEADLINE_FIELDS: Record<OrderType, Map<string, FieldDef>> = {
  WAGON: deadlineFields('WAGON'),
  WHEELSET: deadlineFields('WHEELSET'),
};

/** The catalogue paths (with `[]`) of an order type's deadline fields. */
export function deadlineTemplates(type: OrderType): string[] {
  return [...DEADLINE_FIELDS[type].keys()];
}

/**
 * SQL LIKE patterns of every result key the rule reads for an order type: the deadline fields on both sides and the
 * differentiators naming their entries (a tank test's kind, a wheelset's position and number). The server reads only
 * these rows instead of whole orders. Paths hold no `%` or `_`; a list index becomes `%`.
 */
export function deadlineKeyPatterns(type: OrderType): string[] {
  const patterns = new Set<string>();
  for (const template of deadlineTemplates(type)) {
    const namingPaths = [template];
    let end = template.indexOf('[]');
    while (end >= 0) {
      const list = template.slice(0, end);
      const resolved = resolveKey(type, `${ORDER_ROOTS[type].out}.${template.replaceAll('[]', '[0]')}`);
      const perEntry = resolved?.tab.perEntry;
      if (perEntry && list === perEntry.path) {
        namingPaths.push(`${list}[].${perEntry.differentiator.path}`);
        if (perEntry.summaryField) namingPaths.push(`${list}[].${perEntry.summaryField}`);
      } else if (resolved?.collection) {
        namingPaths.push(`${list}[].${resolved.collection.differentiator.path}`);
      }
      end = template.indexOf('[]', end + 2);
    }
    for (const side of ['in', 'out'] as const) {
      for (const path of namingPaths) patterns.add(`${ORDER_ROOTS[type][side]}.${path.replaceAll('[]', '[%]')}`);
    }
  }
  return [...patterns];
}

/**
 * The due date a stored value gives, YYYY-MM-DD, or null when it gives none (empty, not a date, a date that does
 * not exist). A month (`YYYY-MM`, the tank tests' next due) is due at the end of that month: a test due "05.2027"
 * may be done until 31 May 2027.
 */
export function dueDateOf(field: Pick<FieldDef, 'kind'>, stored: unknown): string | null {
  const value = valueOf(stored);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (field.kind === 'date') return isValidDateText(text) ? text : null;
  if (field.kind === 'monthAndYear') {
    const match = MONTH.exec(text);
    if (!match) return null;
    return dayjs(`${text}-01`).endOf('month').format('YYYY-MM-DD');
  }
  return null;
}

/** Today in the device's (or server's) local calendar, YYYY-MM-DD. */
export function localDate(at: Date = new Date()): string {
  return dayjs(at).format('YYYY-MM-DD');
}

const utcDay = (text: string) => {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day);
};

/** Calendar days from `today` to `due` (both YYYY-MM-DD): no clock time, no daylight-saving hour. */
export function daysBetween(today: string, due: string): number {
  return Math.round((utcDay(due) - utcDay(today)) / DAY_MS);
}

const text = (stored: unknown): string | null => {
  const value = valueOf(stored);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

interface Candidate {
  side: ValueSide;
  due: string;
  field: FieldDef;
  template: string;
  wheelset?: { position: string; number: string | null };
  entry?: string;
}

/**
 * The deadlines of one order from its folded values (`OrderState.values`), relative to `today` (YYYY-MM-DD, the
 * workshop's local date). One deadline per field and entry: the outgoing side's value (the state the wagon leaves
 * in), or the incoming one while the outgoing side has none. Entries are matched by their differentiator, not their
 * index; an entry without one is not shown in the editor either and gives no deadline.
 */
export function orderDeadlines(order: DeadlineOrder, values: Values, today: string): Deadline[] {
  const type = order.type;
  if (!isOrderType(type)) return [];
  const roots = ORDER_ROOTS[type];
  const chosen = new Map<string, Candidate>();
  for (const [key, stored] of Object.entries(values)) {
    const side: ValueSide | null = key.startsWith(`${roots.out}.`)
      ? 'out'
      : key.startsWith(`${roots.in}.`)
        ? 'in'
        : null;
    if (!side) continue;
    const root = roots[side];
    const template = key.slice(root.length + 1).replace(INDEX, '[]');
    const field = DEADLINE_FIELDS[type].get(template);
    if (!field) continue;
    const due = dueDateOf(field, stored);
    if (!due) continue;
    const resolved = resolveKey(type, key);
    if (!resolved) continue;
    const identity: string[] = [template];
    let wheelset: Candidate['wheelset'];
    const perEntry = resolved.tab.perEntry;
    if (perEntry && resolved.chapterScope !== root) {
      const position = text(values[`${resolved.chapterScope}.${perEntry.differentiator.path}`]);
      if (!position) continue;
      const number = perEntry.summaryField ? text(values[`${resolved.chapterScope}.${perEntry.summaryField}`]) : null;
      wheelset = { position, number };
      identity.push(position);
    }
    let entry: string | undefined;
    const collection = resolved.collection;
    if (collection && collection !== perEntry) {
      const below = key.slice(resolved.chapterScope.length + 1);
      const match = new RegExp(`^${collection.path.replaceAll('.', '\\.')}\\[(\\d+)\\]`).exec(below);
      const value = match
        ? text(values[`${resolved.chapterScope}.${match[0]}.${collection.differentiator.path}`])
        : null;
      if (!value) continue;
      entry = value;
      identity.push(value);
    }
    const id = identity.join('\u0000');
    const known = chosen.get(id);
    if (known?.side === 'out') continue;
    if (known && side === 'in') continue;
    chosen.set(id, {
      side,
      due,
      field,
      template,
      ...(wheelset ? { wheelset } : {}),
      ...(entry !== undefined ? { entry } : {}),
    });
  }
  const vehicleNumber = type === 'WAGON' ? order.wagonNumber : order.wheelsetNumber;
  return [...chosen.values()].map((candidate) => ({
    orderId: order.id,
    orderType: type,
    orderNumber: order.number,
    vehicleNumber,
    ...(candidate.wheelset ? { wheelset: candidate.wheelset } : {}),
    ...(candidate.entry !== undefined ? { entry: candidate.entry } : {}),
    field: candidate.template,
    labelKey: labelKeyOf(candidate.field),
    side: candidate.side,
    due: candidate.due,
    daysLeft: daysBetween(today, candidate.due),
  }));
}

export const isOverdue = (deadline: Pick<Deadline, 'daysLeft'>) => deadline.daysLeft < 0;

export function matchesDeadlineFilter(deadline: Pick<Deadline, 'daysLeft'>, filter: DeadlineFilter): boolean {
  if (deadline.daysLeft < 0) return filter.overdue;
  return filter.within !== null && deadline.daysLeft <= filter.within;
}

/**
 * Most urgent first: fewest days left (the longest overdue at the top), then by vehicle number, wheelset position,
 * field, entry and order number, so that the list does not jump between loads.
 */
export function compareDeadlines(a: Deadline, b: Deadline): number {
  return (
    a.daysLeft - b.daysLeft ||
    byCodeUnits(a.vehicleNumber ?? '', b.vehicleNumber ?? '') ||
    byCodeUnits(a.wheelset?.position ?? '', b.wheelset?.position ?? '') ||
    byCodeUnits(a.field, b.field) ||
    byCodeUnits(a.entry ?? '', b.entry ?? '') ||
    byCodeUnits(a.orderNumber, b.orderNumber) ||
    byCodeUnits(a.orderId, b.orderId)
  );
}

/** Plain code-unit order: the same on the server and in every browser, whatever the locale. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The deadline list of many orders: each order's deadlines, filtered and sorted by urgency. */
export function deadlineList(
  orders: Iterable<{ order: DeadlineOrder; values: Values }>,
  filter: DeadlineFilter,
  today: string,
): Deadline[] {
  const list: Deadline[] = [];
  for (const { order, values } of orders) {
    for (const deadline of orderDeadlines(order, values, today)) {
      if (matchesDeadlineFilter(deadline, filter)) list.push(deadline);
    }
  }
  return list.sort(compareDeadlines);
}
