import type { ActivityType } from '../orders/activity.ts';

/** Field kinds of the editor (docs/requirements/orders.md#field-kinds). */
export const FIELD_KINDS = [
  'string',
  'baseString',
  'option',
  'multioption',
  'date',
  'monthAndYear',
  'year',
  'double',
  'boolean',
  'textarea',
  'formula',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/**
 * Units in docs/requirements/orders.md#units. `years` and `months` are words and get translated; the others are
 * symbols.
 */
export const UNITS = ['kg', 't', 'm', 'mm', 'l', 'm²', 'm³', 'MPa', '°C', '%', 'kN', 'µm', 'years', 'months'] as const;
export type Unit = (typeof UNITS)[number];

/** Which sides a field has: incoming and outgoing, or only one of them. */
export type Side = 'both' | 'in' | 'out';
export type ValueSide = 'in' | 'out';

/**
 * A condition on another field's value, evaluated per side (docs/requirements/orders.md#conditional-fields: hidden
 * fields switch their in/out side). `field` is a path relative to the same collection entry when the field sits in one,
 * else to the root.
 */
export type Condition = (
  | { field: string; op: 'filled' }
  | { field: string; op: 'equals'; value: string | boolean }
  | { field: string; op: 'in'; values: readonly string[] }
  | { field: string; op: 'atMost' | 'moreThan' | 'atLeast' | 'lessThan'; value: number }
  /** The value, split at hyphens, has this part: a load limit grid type `A-B1-B2-C2` has `B1`. */
  | { field: string; op: 'hasPart'; value: string }
) & {
  /**
   * Evaluate on this side for both sides (the load limit grid type is chosen on the incoming side,
   * docs/requirements/validation.md#load-limit-filter).
   */
  from?: ValueSide;
  /** A filter the user may switch off in the editor (the tab's `filter`); without the filter the field shows. */
  filter?: boolean;
};

/**
 * A limit a rail standard sets for a measured value (issue 5 "warnings where the data is out of limits"). The first
 * limit whose condition holds applies; an outgoing value outside it gets a warning, never a refusal.
 */
export interface Limit {
  min?: number;
  max?: number;
  when?: Condition;
  /** Where the figure comes from, e.g. "EisbBBV Annex 2". */
  source: string;
}

/**
 * Named calculations in docs/requirements/validation.md#calculations; the inputs are found by the calculation itself.
 */
export type CalculationName = 'srMass' | 'shrinkFit';

export interface FieldDef {
  /** Path below the root or the collection entry, e.g. `Eigengewicht` or `Wheelsetnumber`. */
  path: string;
  kind: FieldKind;
  unit?: Unit;
  /** Decimal places a double keeps (rounded half away from zero); absent: as typed. */
  decimals?: number;
  negatable?: boolean;
  /** Value list key (docs/requirements/administration.md#value-lists) of an option or multioption field. */
  list?: string;
  /**
   * The list may be extended by typing a value that is not on it (docs/requirements/validation.md#option-lists, e.g.
   * VPI-EMG).
   */
  extraEntries?: boolean;
  /** A few fixed codes instead of a value list, shown as a switch (the CM / CM-D grid kind). */
  choices?: readonly string[];
  side?: Side;
  width?: 'half' | 'full';
  ignoreProgress?: boolean;
  visibleWhen?: Condition;
  /**
   * The calculated field this field is an input of: a save recalculates it
   * (docs/requirements/validation.md#calculations).
   */
  recalculates?: string;
  /** A formula field: how its value is computed. */
  calculation?: CalculationName;
  activityType?: ActivityType;
  /** The value must be the same in every entry of the collection; a new entry copies it from the first. */
  uniform?: boolean;
  /** Translation key below `catalogue.field.` when it differs from the last path segment. */
  label?: string;
  /** Limits of a measured value; the editor warns when an outgoing value lies outside. */
  limits?: readonly Limit[];
  /**
   * A due date (issue 23): the deadline list shows it with the days left. Only on `date` and `monthAndYear` fields;
   * dates of work done are not deadlines. See orders/deadlines.ts.
   */
  deadline?: true;
}

/**
 * A list inside the order keyed by a differentiator (docs/requirements/orders.md#collections): each entry's
 * differentiator value names it (a bogie position, a wheel side). Entries are found on each side by that value, so the
 * incoming and outgoing lists may hold different entries at different indexes.
 */
export interface CollectionDef {
  /** Path of the list below the root, without index, e.g. `Understructure.BogieCollection.Bogie`. */
  path: string;
  /** The field naming an entry; written on both sides when the entry is added. */
  differentiator: FieldDef;
  /** The values the differentiator may take, in picker order; or a value list key. */
  values: readonly string[] | { list: string };
  min: number;
  max: number;
  /** Entries that always exist (wheels L and R): no add or remove picker. */
  fixed?: boolean;
  /** An outgoing count field kept equal to the number of entries on add and remove. */
  countField?: string;
  /** The entries (and their pickers) show only while this holds on a side, e.g. "hand brake fitted". */
  visibleWhen?: Condition;
  /** A field shown beside each entry in the summary of a tab that repeats per entry (a wheelset's number). */
  summaryField?: string;
  fields: readonly FieldDef[];
}

export interface ChapterDef {
  id: string;
  fields?: readonly FieldDef[];
  collection?: CollectionDef;
  visibleWhen?: Condition;
}

export interface TabDef {
  id: string;
  /**
   * The tab filters its fields by this incoming field (conditions marked `filter`), and the user may switch the
   * filter off; with the filter on and the field empty, the editor says it must be chosen first
   * (docs/requirements/validation.md#load-limit-filter).
   */
  filter?: { field: string; message: string };
  chapters: readonly ChapterDef[];
  /**
   * The tab repeats its chapters per entry of this collection (the wagon's wheelsets): a summary of the entries
   * and one sub-tab each.
   */
  perEntry?: CollectionDef;
}
