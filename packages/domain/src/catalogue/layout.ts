import { shrinkFit, srMass } from '../orders/calculations.ts';
import { ORDER_ROOTS } from '../orders/paths.ts';
import type { OrderType } from '../orders/status.ts';
import type { ChapterDef, CollectionDef, Condition, FieldDef, TabDef, ValueSide } from './model.ts';
import { resolveKey } from './resolve.ts';
import { CATALOGUE } from './tabs.ts';
import { type AttributeValue, attributeValue, isFilled, valueOf } from './values.ts';

/** The folded order values: full result key → stored attribute. */
export type Values = Readonly<Record<string, unknown>>;

export const SIDES: readonly ValueSide[] = ['in', 'out'];

/** The full path each side's relative paths start from. */
export type Scope = Record<ValueSide, string>;

export function rootScope(type: OrderType): Scope {
  return { in: ORDER_ROOTS[type].in, out: ORDER_ROOTS[type].out };
}

/** A change the editor turns into an activity: a value, or null to delete the key and all below it. */
export interface Write {
  key: string;
  value: AttributeValue['value'] | null;
}

/** One entry of a collection, found on each side by its differentiator value. */
export interface EntryRef {
  value: string;
  index: Record<ValueSide, number>;
  /** False on a side that has no such entry yet: a write there first writes the differentiator at `index`. */
  exists: Record<ValueSide, boolean>;
}

/** Where a field's value lives on one side, and what must be written first to make the entry exist there. */
export interface Slot {
  key: string;
  create: Write[];
  /** The path the field's conditions and limits are relative to (its entry, or the root). */
  scope: string;
}

export interface RowView {
  field: FieldDef;
  in?: Slot;
  out?: Slot;
}

export interface EntryView {
  entry: EntryRef;
  scope: Scope;
  rows: RowView[];
}

export interface CollectionView {
  collection: CollectionDef;
  /** The scope the collection path starts from. */
  scope: Scope;
  entries: EntryView[];
  /** Differentiator values the add picker offers: unused ones, none at the limit or for fixed entries. */
  addable: string[];
  /** Values the remove picker offers: used ones, none at the minimum or for fixed entries. */
  removable: string[];
}

export interface ChapterView {
  chapter: ChapterDef;
  rows: RowView[];
  collection?: CollectionView;
}

export interface TabView {
  tab: TabDef;
  chapters: ChapterView[];
}

const compareEntryValues = (collection: CollectionDef) => {
  const order = Array.isArray(collection.values) ? (collection.values as readonly string[]) : [];
  return (a: string, b: string) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    if (ia !== -1 && ib !== -1) return ia - ib;
    if (ia !== -1 || ib !== -1) return ia === -1 ? 1 : -1;
    return a.localeCompare(b, undefined, { numeric: true });
  };
};

/** The differentiator values of a collection on one side, by index. */
function entriesOnSide(values: Values, listPath: string, differentiator: string): Map<number, string> {
  const found = new Map<number, string>();
  const prefix = `${listPath}[`;
  const suffix = `].${differentiator}`;
  for (const [key, stored] of Object.entries(values)) {
    if (!key.startsWith(prefix) || !key.endsWith(suffix)) continue;
    const index = key.slice(prefix.length, key.length - suffix.length);
    if (!/^\d+$/.test(index) || !isFilled(stored)) continue;
    found.set(Number(index), String(valueOf(stored)));
  }
  return found;
}

/** The highest index used below a list on one side (any key, not only differentiators), -1 when none. */
function highestIndex(values: Values, listPath: string): number {
  const prefix = `${listPath}[`;
  let highest = -1;
  for (const key of Object.keys(values)) {
    if (!key.startsWith(prefix)) continue;
    const index = Number(key.slice(prefix.length, key.indexOf(']', prefix.length)));
    if (Number.isInteger(index)) highest = Math.max(highest, index);
  }
  return highest;
}

/**
 * The entries of a collection: found per side by their differentiator value, sorted in the collection's order.
 * A fixed collection's entries sit at the index of their value. An entry missing on one side gets the next free
 * index there, counting up in entry order so that no two missing entries share one.
 */
export function collectionEntries(values: Values, scope: Scope, collection: CollectionDef): EntryRef[] {
  const fixed = collection.fixed && Array.isArray(collection.values);
  if (fixed) {
    return (collection.values as readonly string[]).map((value, index) => {
      const exists = {} as Record<ValueSide, boolean>;
      for (const side of SIDES) {
        const key = `${scope[side]}.${collection.path}[${index}].${collection.differentiator.path}`;
        exists[side] = isFilled(values[key]);
      }
      return { value, index: { in: index, out: index }, exists };
    });
  }
  const bySide = {} as Record<ValueSide, Map<string, number>>;
  const all = new Set<string>();
  for (const side of SIDES) {
    bySide[side] = new Map();
    const listPath = `${scope[side]}.${collection.path}`;
    for (const [index, value] of entriesOnSide(values, listPath, collection.differentiator.path)) {
      // Two entries with one value should not happen; the first index wins, as it is the one shown.
      if (!bySide[side].has(value) || bySide[side].get(value)! > index) bySide[side].set(value, index);
      all.add(value);
    }
  }
  const next = {} as Record<ValueSide, number>;
  for (const side of SIDES) next[side] = highestIndex(values, `${scope[side]}.${collection.path}`) + 1;
  return [...all].sort(compareEntryValues(collection)).map((value) => {
    const index = {} as Record<ValueSide, number>;
    const exists = {} as Record<ValueSide, boolean>;
    for (const side of SIDES) {
      const found = bySide[side].get(value);
      exists[side] = found !== undefined;
      index[side] = found ?? next[side]++;
    }
    return { value, index, exists };
  });
}

export function entryScope(scope: Scope, collection: CollectionDef, entry: EntryRef): Scope {
  return {
    in: `${scope.in}.${collection.path}[${entry.index.in}]`,
    out: `${scope.out}.${collection.path}[${entry.index.out}]`,
  };
}

/** The writes that make an entry exist on a side where it does not yet. */
function creation(collection: CollectionDef, entry: EntryRef, scope: Scope, side: ValueSide): Write[] {
  if (entry.exists[side]) return [];
  return [
    { key: `${entryScope(scope, collection, entry)[side]}.${collection.differentiator.path}`, value: entry.value },
  ];
}

/** How conditions are read: the incoming scope for `from: 'in'`, and whether filters are switched off. */
interface ConditionContext {
  inScope?: string;
  unfiltered?: boolean;
}

function conditionHolds(
  condition: Condition | undefined,
  values: Values,
  scope: string,
  context: ConditionContext = {},
): boolean {
  if (!condition) return true;
  if (condition.filter && context.unfiltered) return true;
  const at = condition.from === 'in' && context.inScope !== undefined ? context.inScope : scope;
  const stored = values[`${at}.${condition.field}`];
  const value = valueOf(stored);
  switch (condition.op) {
    case 'filled':
      return isFilled(stored);
    case 'equals':
      return value === condition.value;
    case 'in':
      return typeof value === 'string' && condition.values.includes(value);
    case 'hasPart':
      return typeof value === 'string' && value.split('-').includes(condition.value);
    case 'atMost':
    case 'moreThan':
    case 'atLeast':
    case 'lessThan': {
      if (!isFilled(stored)) return false;
      const number = Number(value);
      if (!Number.isFinite(number)) return false;
      if (condition.op === 'atMost') return number <= condition.value;
      if (condition.op === 'moreThan') return number > condition.value;
      if (condition.op === 'atLeast') return number >= condition.value;
      return number < condition.value;
    }
  }
}

export interface LimitWarning {
  min?: number;
  max?: number;
  source: string;
}

/**
 * The limit an outgoing measured value breaks, or null: the first of the field's limits whose condition holds
 * (conditions relative to `scope`, the entry or root the field sits in). A value that is not a number is not judged.
 */
export function limitWarning(field: FieldDef, values: Values, key: string, scope: string): LimitWarning | null {
  if (!field.limits || !isFilled(values[key])) return null;
  const number = Number(valueOf(values[key]));
  if (!Number.isFinite(number)) return null;
  const limit = field.limits.find((candidate) => conditionHolds(candidate.when, values, scope));
  if (!limit) return null;
  const outside = (limit.min !== undefined && number < limit.min) || (limit.max !== undefined && number > limit.max);
  if (!outside) return null;
  return {
    ...(limit.min !== undefined ? { min: limit.min } : {}),
    ...(limit.max !== undefined ? { max: limit.max } : {}),
    source: limit.source,
  };
}

const fieldSides = (field: FieldDef): readonly ValueSide[] =>
  field.side === 'in' ? ['in'] : field.side === 'out' ? ['out'] : SIDES;

function rowsOf(
  fields: readonly FieldDef[],
  values: Values,
  scope: Scope,
  sideVisible: Record<ValueSide, boolean>,
  options: LayoutOptions,
  create: Record<ValueSide, Write[]> = { in: [], out: [] },
): RowView[] {
  const context = { inScope: scope.in, ...options };
  const rows: RowView[] = [];
  for (const field of fields) {
    const row: RowView = { field };
    for (const side of fieldSides(field)) {
      if (sideVisible[side] && conditionHolds(field.visibleWhen, values, scope[side], context)) {
        row[side] = { key: `${scope[side]}.${field.path}`, create: create[side], scope: scope[side] };
      }
    }
    if (row.in || row.out) rows.push(row);
  }
  return rows;
}

function collectionView(
  values: Values,
  scope: Scope,
  collection: CollectionDef,
  sideVisible: Record<ValueSide, boolean>,
  options: LayoutOptions = {},
): CollectionView {
  const entries = collectionEntries(values, scope, collection);
  const used = new Set(entries.map((entry) => entry.value));
  const choices = Array.isArray(collection.values) ? (collection.values as readonly string[]) : [];
  const editable = !collection.fixed;
  return {
    collection,
    scope,
    entries: entries.map((entry) => {
      const inner = entryScope(scope, collection, entry);
      const create = { in: creation(collection, entry, scope, 'in'), out: creation(collection, entry, scope, 'out') };
      return { entry, scope: inner, rows: rowsOf(collection.fields, values, inner, sideVisible, options, create) };
    }),
    addable: editable && entries.length < collection.max ? choices.filter((value) => !used.has(value)) : [],
    removable: editable && entries.length > collection.min ? entries.map((entry) => entry.value) : [],
  };
}

function chapterViews(
  chapters: readonly ChapterDef[],
  values: Values,
  scope: Scope,
  options: LayoutOptions = {},
): ChapterView[] {
  const views: ChapterView[] = [];
  const context = { inScope: scope.in, ...options };
  for (const chapter of chapters) {
    const sideVisible = {
      in: conditionHolds(chapter.visibleWhen, values, scope.in, context),
      out: conditionHolds(chapter.visibleWhen, values, scope.out, context),
    };
    if (!sideVisible.in && !sideVisible.out) continue;
    const collection = chapter.collection;
    const collectionVisible = collection && {
      in: sideVisible.in && conditionHolds(collection.visibleWhen, values, scope.in, context),
      out: sideVisible.out && conditionHolds(collection.visibleWhen, values, scope.out, context),
    };
    views.push({
      chapter,
      rows: rowsOf(chapter.fields ?? [], values, scope, sideVisible, options),
      ...(collection && collectionVisible && (collectionVisible.in || collectionVisible.out)
        ? { collection: collectionView(values, scope, collection, collectionVisible, options) }
        : {}),
    });
  }
  return views;
}

/** The summary of a tab that repeats per entry (the wagon's wheelsets): its entries and pickers. */
export function perEntrySummary(type: OrderType, tab: TabDef, values: Values): CollectionView | null {
  if (!tab.perEntry) return null;
  return collectionView(values, rootScope(type), tab.perEntry, { in: true, out: true });
}

/**
 * What a tab shows for the current values: its visible chapters, rows and the keys of each side. For a tab that
 * repeats per entry, `entryValue` picks the entry (a wheelset position); without it the tab has no chapters.
 */
export interface LayoutOptions {
  /** The user switched the tab's filter off (docs/requirements/validation.md#load-limit-filter). */
  unfiltered?: boolean;
}

/**
 * The tab's filter asks for a value the incoming side does not have yet: the editor says so
 * (docs/requirements/validation.md#load-limit-filter).
 */
export function filterMissing(type: OrderType, tab: TabDef, values: Values): boolean {
  return tab.filter !== undefined && !isFilled(values[`${rootScope(type).in}.${tab.filter.field}`]);
}

export function layoutTab(
  type: OrderType,
  tab: TabDef,
  values: Values,
  entryValue?: string,
  options: LayoutOptions = {},
): TabView {
  const root = rootScope(type);
  if (!tab.perEntry) return { tab, chapters: chapterViews(tab.chapters, values, root, options) };
  const entry = collectionEntries(values, root, tab.perEntry).find((candidate) => candidate.value === entryValue);
  if (!entry) return { tab, chapters: [] };
  const scope = entryScope(root, tab.perEntry, entry);
  // The entry's own differentiator holds on both sides, also where the entry does not exist yet: a chapter shown
  // by the entry's type (a tank superstructure) is there to be filled on the side still missing it.
  const differentiator = tab.perEntry.differentiator.path;
  const own = { value: entry.value };
  const views = chapterViews(
    tab.chapters,
    { ...values, [`${scope.in}.${differentiator}`]: own, [`${scope.out}.${differentiator}`]: own },
    scope,
    options,
  );
  // Writing into an entry that exists on one side only creates it on the other first.
  for (const side of SIDES) {
    const create = creation(tab.perEntry, entry, root, side);
    if (create.length === 0) continue;
    for (const view of views) {
      const slots = [...view.rows, ...(view.collection?.entries.flatMap((e) => e.rows) ?? [])].map((row) => row[side]);
      for (const slot of slots) if (slot) slot.create = [...create, ...slot.create];
    }
  }
  return { tab, chapters: views };
}

/** All rows of a tab view, collection entries included. */
export function allRows(view: TabView): RowView[] {
  return view.chapters.flatMap((chapter) => [
    ...chapter.rows,
    ...(chapter.collection?.entries.flatMap((entry) => entry.rows) ?? []),
  ]);
}

export interface Progress {
  filled: number;
  total: number;
  /** Whole percent, 0 when the tab has nothing to fill. */
  percent: number;
}

const counts = (row: RowView) => !row.field.ignoreProgress && row.out !== undefined;

/**
 * Share of the tab's outgoing fields that are filled, across all list entries, ignoring `ignoreProgress`
 * (docs/requirements/orders.md#tab-progress). A tab that repeats per entry counts every entry.
 */
export function tabProgress(type: OrderType, tab: TabDef, values: Values): Progress {
  const views = tab.perEntry
    ? (perEntrySummary(type, tab, values)?.entries ?? []).map((entry) =>
        layoutTab(type, tab, values, entry.entry.value),
      )
    : [layoutTab(type, tab, values)];
  let filled = 0;
  let total = 0;
  for (const row of views.flatMap(allRows).filter(counts)) {
    total += 1;
    if (isFilled(values[row.out!.key])) filled += 1;
  }
  return { filled, total, percent: total === 0 ? 0 : Math.round((filled / total) * 100) };
}

export type ProgressColour = 'error' | 'warning' | 'success';

/** Red up to 20, orange up to 60, green up to 100 (docs/requirements/orders.md#tab-progress). */
export function progressColour(percent: number): ProgressColour {
  return percent <= 20 ? 'error' : percent <= 60 ? 'warning' : 'success';
}

/** The writes of a slot: the entry's creation where needed, then the value. */
export function slotWrites(slot: Slot, value: Write['value']): Write[] {
  return [...slot.create, { key: slot.key, value }];
}

/**
 * "Take over all entries" (docs/requirements/orders.md#take-over-all-entries): every filled incoming value of the view
 * is copied to the outgoing side, overwriting what is there. Creation writes are made once per entry.
 */
export function takeOverWrites(view: TabView, values: Values): Write[] {
  const writes: Write[] = [];
  const written = new Set<string>();
  for (const row of allRows(view)) {
    if (!row.in || !row.out || row.field.kind === 'formula') continue;
    const stored = values[row.in.key];
    if (!isFilled(stored) || values[row.out.key] === stored) continue;
    for (const write of slotWrites(row.out, valueOf(stored) as Write['value'])) {
      if (written.has(write.key)) continue;
      written.add(write.key);
      writes.push(write);
    }
  }
  return writes;
}

/**
 * Adding an entry (docs/requirements/orders.md#differentiator-entries): the differentiator on both sides where missing,
 * the uniform fields copied from the first entry of each side, and the count field set to the new number of entries.
 */
export function addEntryWrites(values: Values, view: CollectionView, value: string): Write[] {
  const { collection, scope } = view;
  if (!view.addable.includes(value)) return [];
  const writes: Write[] = [];
  const entries = collectionEntries(values, scope, collection);
  for (const side of SIDES) {
    const next = highestIndex(values, `${scope[side]}.${collection.path}`) + 1;
    const prefix = `${scope[side]}.${collection.path}[${next}]`;
    writes.push({ key: `${prefix}.${collection.differentiator.path}`, value });
    const first = entries.find((entry) => entry.exists[side]);
    for (const field of collection.fields.filter((f) => f.uniform)) {
      if (!first) break;
      const stored = values[`${scope[side]}.${collection.path}[${first.index[side]}].${field.path}`];
      if (isFilled(stored)) writes.push({ key: `${prefix}.${field.path}`, value: valueOf(stored) as Write['value'] });
    }
  }
  if (collection.countField) {
    writes.push({ key: `${scope.out}.${collection.countField}`, value: String(entries.length + 1) });
  }
  return writes;
}

/**
 * Removing an entry deletes it on both sides and lowers the count field
 * (docs/requirements/orders.md#differentiator-entries).
 */
export function removeEntryWrites(values: Values, view: CollectionView, value: string): Write[] {
  const { collection, scope } = view;
  if (!view.removable.includes(value)) return [];
  const entries = collectionEntries(values, scope, collection);
  const entry = entries.find((candidate) => candidate.value === value);
  if (!entry) return [];
  const writes: Write[] = SIDES.filter((side) => entry.exists[side]).map((side) => ({
    key: entryScope(scope, collection, entry)[side],
    value: null,
  }));
  if (collection.countField) {
    writes.push({ key: `${scope.out}.${collection.countField}`, value: String(entries.length - 1) });
  }
  return writes;
}

/** The lowest wheelset position not in use, from 1 (docs/requirements/orders.md#differentiator-entries). */
export function lowestUnused(addable: readonly string[]): string | undefined {
  return [...addable].sort((a, b) => Number(a) - Number(b))[0];
}

export type Recalculation =
  { kind: 'none' } | { kind: 'write'; write: Write } | { kind: 'missing'; field: string; parameters: string[] };

const numberAt = (values: Values, key: string): number | null => {
  const value = valueOf(values[key]);
  if (typeof value !== 'string' || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
};

/**
 * The recalculation after a save (docs/requirements/validation.md#calculations): when the saved key is an input of a
 * calculated field, its new value, or the names of the parameters still missing (the caller warns,
 * docs/requirements/validation.md#order-messages).
 */
export function recalculate(type: OrderType, values: Values, key: string): Recalculation {
  const resolved = resolveKey(type, key);
  const target = resolved?.field?.recalculates;
  if (!resolved?.field || !target) return { kind: 'none' };
  // A calculation inside a list entry (a journal's shrink fit) takes its inputs from that entry.
  const entryFormula = resolved.collection?.fields.find((field) => field.path === target);
  if (entryFormula?.calculation === 'shrinkFit') {
    const entry = key.slice(0, key.length - resolved.field.path.length - 1);
    const decimals = entryFormula.decimals ?? 0;
    const result = shrinkFit(
      numberAt(values, `${entry}.AxleStubBore`),
      numberAt(values, `${entry}.RingDiameter`),
      decimals,
    );
    if (!result.ok) return { kind: 'missing', field: target, parameters: result.missing };
    return { kind: 'write', write: { key: `${entry}.${target}`, value: result.value.toFixed(decimals) } };
  }
  const scope = resolved.chapterScope;
  // Inputs and result may sit in different tabs (a wheelset order's measures and wheel measures), within one scope.
  const chapters = CATALOGUE[type]
    .filter((tab) => tab.perEntry === resolved.tab.perEntry)
    .flatMap((tab) => tab.chapters);
  const formula = chapters.flatMap((chapter) => chapter.fields ?? []).find((field) => field.path === target);
  if (formula?.calculation !== 'srMass') return { kind: 'none' };
  const wheels = chapters.find((chapter) => chapter.collection?.path === 'Wheels.Wheel')?.collection;
  const sd = (side: string) => {
    if (!wheels) return null;
    const sideScope = { in: scope, out: scope };
    const entry = collectionEntries(values, sideScope, wheels).find((candidate) => candidate.value === side);
    return entry ? numberAt(values, `${entryScope(sideScope, wheels, entry).in}.Sd`) : null;
  };
  const result = srMass(numberAt(values, `${scope}.ArDimension`), sd('L'), sd('R'));
  if (!result.ok) return { kind: 'missing', field: target, parameters: result.missing };
  return { kind: 'write', write: { key: `${scope}.${target}`, value: result.value.toFixed(formula.decimals ?? 3) } };
}

/** The catalogue's tabs of an order type that have something to show. */
export function orderTabs(type: OrderType): readonly TabDef[] {
  return CATALOGUE[type];
}

/**
 * The values with every calculated field that its inputs allow but that holds no value: an order filled by an import or
 * an API client, not by the editor (which writes each result as its inputs are saved), so that documents print every
 * calculated value. A stored result stays as it is; a new one is dated `at`.
 */
export function withCalculatedValues(type: OrderType, values: Values, at: Date): Values {
  const filled: Record<string, unknown> = { ...values };
  for (const key of Object.keys(values)) {
    const result = recalculate(type, filled, key);
    if (result.kind === 'write' && result.write.value !== null && !isFilled(filled[result.write.key])) {
      filled[result.write.key] = attributeValue(result.write.value, at);
    }
  }
  return filled;
}
