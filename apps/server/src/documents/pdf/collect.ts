import {
  CATALOGUE,
  type ChapterView,
  type FieldDef,
  type OrderType,
  type RowView,
  type Scope,
  type TabDef,
  type Values,
  WAGON_WHEELSETS,
  formatNumber,
  formatVehicleNumber,
  isFilled,
  layoutTab,
  limitWarning,
  perEntrySummary,
  rootScope,
  valueOf,
} from '@vers/domain';
import type { Texts } from './labels.ts';

/**
 * What the documents show, read from the order's values through the editor's own layout: the tables of a tab
 * with only the rows that have a value, a wheelset's numbers and measures. No React here.
 */

/** Fields holding a vehicle number, printed `NN NN NNNN NNN-C`. */
const VEHICLE_NUMBER_FIELDS = new Set(['Waggonnummer', 'Wheelsetnumber']);

/**
 * A stored value as printed: translated yes/no, dates and numbers in the language's form ("27,5" in German, with the
 * places as stored), lists joined.
 */
export function formatValue(field: FieldDef, stored: unknown, x: Texts): string {
  if (!isFilled(stored)) return '';
  const value = valueOf(stored);
  if (typeof value === 'boolean') return x.t(value ? 'yes' : 'no');
  if (Array.isArray(value)) return value.map((item) => x.option(field, String(item))).join(', ');
  const text = String(value);
  if (field.kind === 'option') return x.option(field, text);
  if (field.kind === 'date') return x.date(text);
  if (field.kind === 'monthAndYear') return x.month(text);
  if (field.kind === 'double' || field.kind === 'formula') return formatNumber(text, x.language);
  if (VEHICLE_NUMBER_FIELDS.has(field.path)) return formatVehicleNumber(text);
  return text;
}

export interface ValueRow {
  label: string;
  in: string;
  out: string;
  unit: string;
  /** The outgoing value lies outside a standard's limit (the editor's warning). */
  outsideLimit: boolean;
}

/** Rows of a table: a chapter's own fields (no title) or one collection entry (its title). */
export interface RowGroup {
  title?: string;
  rows: ValueRow[];
}

export interface ChapterTable {
  title: string;
  groups: RowGroup[];
}

/** A tab's tables; a tab that repeats per entry (wheelsets, superstructures) has one part per entry. */
export interface TabSection {
  title: string;
  parts: { title?: string; chapters: ChapterTable[] }[];
}

function valueRows(rows: readonly RowView[], values: Values, x: Texts): ValueRow[] {
  const shown: ValueRow[] = [];
  for (const row of rows) {
    const stored = { in: row.in && values[row.in.key], out: row.out && values[row.out.key] };
    if (!isFilled(stored.in) && !isFilled(stored.out)) continue;
    shown.push({
      label: x.field(row.field),
      in: formatValue(row.field, stored.in, x),
      out: formatValue(row.field, stored.out, x),
      unit: x.unit(row.field.unit),
      outsideLimit: row.out !== undefined && limitWarning(row.field, values, row.out.key, row.out.scope) !== null,
    });
  }
  return shown;
}

function chapterTable(view: ChapterView, values: Values, x: Texts): ChapterTable | null {
  const groups: RowGroup[] = [];
  const own = valueRows(view.rows, values, x);
  if (own.length > 0) groups.push({ rows: own });
  const collection = view.collection;
  for (const entry of collection?.entries ?? []) {
    const rows = valueRows(entry.rows, values, x);
    if (rows.length > 0)
      groups.push({ title: x.entry(collection!.collection.differentiator, entry.entry.value), rows });
  }
  return groups.length > 0 ? { title: x.catalogue(`chapter.${view.chapter.id}`), groups } : null;
}

/** The tables of a tab (or of one entry of a tab that repeats per entry), leaving out chapters with no value. */
export function chapterTables(type: OrderType, tab: TabDef, values: Values, x: Texts, entry?: string): ChapterTable[] {
  return layoutTab(type, tab, values, entry)
    .chapters.map((view) => chapterTable(view, values, x))
    .filter((table): table is ChapterTable => table !== null);
}

export interface EntryOfTab {
  value: string;
  title: string;
  scope: Scope;
}

/** The entries of a tab that repeats per entry, in the editor's order, with their titles. */
export function tabEntries(type: OrderType, tab: TabDef, values: Values, x: Texts): EntryOfTab[] {
  if (!tab.perEntry) return [];
  const differentiator = tab.perEntry.differentiator;
  return (perEntrySummary(type, tab, values)?.entries ?? []).map((entry) => ({
    value: entry.entry.value,
    title: x.entry(differentiator, entry.entry.value),
    scope: entry.scope,
  }));
}

/** A tab's section, or null when nothing in it is filled. */
export function tabSection(type: OrderType, tab: TabDef, values: Values, x: Texts): TabSection | null {
  const title = x.catalogue(`tab.${type}.${tab.id}`);
  if (!tab.perEntry) {
    const chapters = chapterTables(type, tab, values, x);
    return chapters.length > 0 ? { title, parts: [{ chapters }] } : null;
  }
  const summary = tab.perEntry.summaryField;
  const parts = tabEntries(type, tab, values, x)
    .map((entry) => {
      const number = summary ? entryNumber(values, entry.scope, summary) : '';
      return {
        title: number ? `${entry.title} · ${number}` : entry.title,
        chapters: chapterTables(type, tab, values, x, entry.value),
      };
    })
    .filter((part) => part.chapters.length > 0);
  return parts.length > 0 ? { title, parts } : null;
}

/** The summary field of an entry (a wheelset's number), outgoing else incoming. */
function entryNumber(values: Values, scope: Scope, path: string): string {
  const stored = isFilled(values[`${scope.out}.${path}`])
    ? values[`${scope.out}.${path}`]
    : values[`${scope.in}.${path}`];
  if (!isFilled(stored)) return '';
  const text = String(valueOf(stored));
  return VEHICLE_NUMBER_FIELDS.has(path) ? formatVehicleNumber(text) : text;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Wheelsets                                                                                                    */
/* ------------------------------------------------------------------------------------------------------------ */

export interface Wheelset {
  /** The position in the wagon (the entry's differentiator), or the wheelset order's position field. */
  position: string;
  /** Title as the editor shows it: "Radsatz 2". */
  title: string;
  scope: Scope;
  /** The wagon's per-entry tab value, for laying out its chapters; undefined in a wheelset order. */
  entry?: string;
  numberIn: string;
  numberOut: string;
}

export const wheelsetsTab = (type: OrderType): TabDef | undefined =>
  type === 'WAGON' ? CATALOGUE.WAGON.find((tab) => tab.perEntry === WAGON_WHEELSETS) : undefined;

const text = (values: Values, key: string) => (isFilled(values[key]) ? String(valueOf(values[key])) : '');

/** The wagon's wheelsets in position order, or the wheelset order's one wheelset. */
export function wheelsets(type: OrderType, values: Values, x: Texts): Wheelset[] {
  const tab = wheelsetsTab(type);
  if (!tab) {
    const scope = rootScope(type);
    return [
      {
        position: text(values, `${scope.out}.Position`) || text(values, `${scope.in}.Position`),
        title: '',
        scope,
        numberIn: text(values, `${scope.in}.Wheelsetnumber`),
        numberOut: text(values, `${scope.out}.Wheelsetnumber`),
      },
    ];
  }
  return tabEntries(type, tab, values, x).map((entry) => ({
    position: entry.value,
    title: entry.title,
    scope: entry.scope,
    entry: entry.value,
    numberIn: text(values, `${entry.scope.in}.Wheelsetnumber`),
    numberOut: text(values, `${entry.scope.out}.Wheelsetnumber`),
  }));
}

/** The measures of the wheelset report: per wheel, then per wheelset (paths relative to the wheelset). */
export const WHEEL_MEASURES = ['Laufkreisdurchmesser', 'Sd', 'Sh', 'Qr'] as const;
export const WHEELSET_MEASURES = ['ArDimension', 'SrMass'] as const;

export interface Measure {
  in: string;
  out: string;
  outsideLimit: boolean;
}

export interface WheelsetMeasures {
  wheels: { side: string; measures: Measure[] }[];
  measures: Measure[];
}

/** The field definitions of the report's measures, found in the catalogue (with their units and limits). */
export function measureFields(type: OrderType): { wheel: FieldDef[]; wheelset: FieldDef[]; wheelsCollection: string } {
  const chapters = CATALOGUE[type].flatMap((tab) => tab.chapters);
  const wheels = chapters.find((chapter) => chapter.collection?.path === 'Wheels.Wheel' && chapter.id === 'wheels');
  const wheelFields = wheels?.collection?.fields ?? [];
  const wheelsetFields = chapters.flatMap((chapter) => chapter.fields ?? []);
  const pick = (fields: readonly FieldDef[], paths: readonly string[]) =>
    paths.map((path) => fields.find((field) => field.path === path)).filter((f): f is FieldDef => f !== undefined);
  return {
    wheel: pick(wheelFields, WHEEL_MEASURES),
    wheelset: pick(wheelsetFields, WHEELSET_MEASURES),
    wheelsCollection: 'Wheels.Wheel',
  };
}

export function wheelsetMeasures(type: OrderType, wheelset: Wheelset, values: Values, x: Texts): WheelsetMeasures {
  const fields = measureFields(type);
  const measure = (field: FieldDef, scope: Scope): Measure => {
    const outKey = `${scope.out}.${field.path}`;
    return {
      in: formatValue(field, values[`${scope.in}.${field.path}`], x),
      out: formatValue(field, values[outKey], x),
      // Limits are read relative to the wheel or wheelset the field sits in, as the editor does.
      outsideLimit: limitWarning(field, values, outKey, scope.out) !== null,
    };
  };
  const wheels = ['L', 'R'].map((side, index) => {
    const scope = {
      in: `${wheelset.scope.in}.${fields.wheelsCollection}[${index}]`,
      out: `${wheelset.scope.out}.${fields.wheelsCollection}[${index}]`,
    };
    return { side: x.catalogue(`side.${side}`), measures: fields.wheel.map((field) => measure(field, scope)) };
  });
  return { wheels, measures: fields.wheelset.map((field) => measure(field, wheelset.scope)) };
}
