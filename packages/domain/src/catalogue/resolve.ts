import { ACTIVITY_TYPES, parseOutputValue } from '../orders/activity.ts';
import { ORDER_ROOTS } from '../orders/paths.ts';
import type { OrderType } from '../orders/status.ts';
import type { ChapterDef, CollectionDef, FieldDef, TabDef, ValueSide } from './model.ts';
import { CATALOGUE } from './tabs.ts';
import { attributeShapeProblem, describeIssue, type ValueIssue, valueIssue, valueOf } from './values.ts';

/** Where a result key sits in the catalogue. */
export interface ResolvedKey {
  /** The field, or null for a whole collection entry (`...Bogie[2]`, only deleted as a whole). */
  field: FieldDef | null;
  tab: TabDef;
  chapter: ChapterDef;
  side: ValueSide;
  collection?: CollectionDef;
  /** The full path of the scope the chapter's relative paths start from (the root, or a wagon's wheelset). */
  chapterScope: string;
}

interface Template {
  field: FieldDef | null;
  tab: TabDef;
  chapter: ChapterDef;
  collection?: CollectionDef;
  /** Number of path segments of the chapter scope below the root. */
  scopeSegments: number;
}

const INDEX = /\[\d+\]/g;

function buildTemplates(type: OrderType): Map<string, Template> {
  const templates = new Map<string, Template>();
  const add = (path: string, template: Template) => {
    const known = templates.get(path);
    // One collection may be shown in several chapters (a wheel's base data and its measures): its entries and
    // differentiator are the same, filed under the first chapter. Anything else defined twice is a mistake.
    const shared =
      known?.collection !== undefined &&
      known.collection.path === template.collection?.path &&
      (template.field === null || template.field === template.collection.differentiator);
    if (known && !shared) throw new Error(`catalogue: ${type} path ${path} defined twice`);
    if (!known) templates.set(path, template);
  };
  for (const tab of CATALOGUE[type]) {
    const scope = tab.perEntry ? `${tab.perEntry.path}[].` : '';
    const scopeSegments = tab.perEntry ? tab.perEntry.path.split('.').length : 0;
    for (const chapter of tab.chapters) {
      for (const field of chapter.fields ?? []) add(scope + field.path, { field, tab, chapter, scopeSegments });
      const collection = chapter.collection;
      if (collection) {
        const entry = `${scope}${collection.path}[]`;
        add(entry, { field: null, tab, chapter, collection, scopeSegments });
        for (const field of [collection.differentiator, ...collection.fields]) {
          add(`${entry}.${field.path}`, { field, tab, chapter, collection, scopeSegments });
        }
      }
    }
    if (tab.perEntry) {
      const first = tab.chapters[0];
      if (!first) throw new Error(`catalogue: ${type} tab ${tab.id} has no chapter`);
      // The entry and its differentiator belong to the tab's summary, filed under its first chapter.
      const entry = `${tab.perEntry.path}[]`;
      add(entry, { field: null, tab, chapter: first, collection: tab.perEntry, scopeSegments: 0 });
      add(`${entry}.${tab.perEntry.differentiator.path}`, {
        field: tab.perEntry.differentiator,
        tab,
        chapter: first,
        collection: tab.perEntry,
        scopeSegments: 0,
      });
    }
  }
  return templates;
}

const TEMPLATES: Record<OrderType, Map<string, Template>> = {
  WAGON: buildTemplates('WAGON'),
  WHEELSET: buildTemplates('WHEELSET'),
};

/** Every catalogued path of an order type with `[]` for list indexes, for tests and exports. */
export function catalogueTemplates(type: OrderType): string[] {
  return [...TEMPLATES[type].keys()];
}

/** Finds the catalogue entry of a full result key, or null when the catalogue has no such field. */
export function resolveKey(type: OrderType, key: string): ResolvedKey | null {
  for (const side of ['in', 'out'] as const) {
    const root = ORDER_ROOTS[type][side];
    if (!key.startsWith(`${root}.`)) continue;
    const relative = key.slice(root.length + 1);
    const template = TEMPLATES[type].get(relative.replace(INDEX, '[]'));
    if (!template) return null;
    const scope = relative.split('.').slice(0, template.scopeSegments);
    return {
      field: template.field,
      tab: template.tab,
      chapter: template.chapter,
      side,
      ...(template.collection ? { collection: template.collection } : {}),
      chapterScope: [root, ...scope].join('.'),
    };
  }
  return null;
}

/** Why a write of `key` does not fit the order type's catalogue: the field's value rule, or where it would go. */
export type WriteIssue =
  | ValueIssue
  | { code: 'UNKNOWN_FIELD' }
  | { code: 'ENTRY_DELETE_ONLY' }
  | { code: 'NOT_ON_THIS_SIDE'; side: ValueSide };

/**
 * Whether a write fits the catalogue: a known key, on a side the field has, a value its kind takes (`null` clears,
 * which always fits). The browser asks it at the keyboard, the server for every change it receives.
 */
export function writeIssue(type: OrderType, key: string, value: unknown): WriteIssue | null {
  const resolved = resolveKey(type, key);
  if (!resolved) return { code: 'UNKNOWN_FIELD' };
  if (value === null) return null;
  if (!resolved.field) return { code: 'ENTRY_DELETE_ONLY' };
  const side = resolved.field.side ?? 'both';
  if (side !== 'both' && side !== resolved.side) return { code: 'NOT_ON_THIS_SIDE', side: resolved.side };
  return valueIssue(resolved.field, value);
}

function describeWriteIssue(issue: WriteIssue): string {
  switch (issue.code) {
    case 'UNKNOWN_FIELD':
      return 'no such field';
    case 'ENTRY_DELETE_ONLY':
      return 'a list entry can only be deleted';
    case 'NOT_ON_THIS_SIDE':
      return `no such field on the ${issue.side === 'in' ? 'incoming' : 'outgoing'} side`;
    default:
      return describeIssue(issue);
  }
}

/** Why an activity does not fit the catalogue (the server's 400 message names the path); null when it fits. */
export function activityProblem(
  type: OrderType,
  key: string,
  activityType: string,
  outputValue: string,
): string | null {
  if (activityType === ACTIVITY_TYPES.XML_DELETE) {
    const issue = writeIssue(type, key, null);
    return issue ? describeWriteIssue(issue) : null;
  }
  const stored = parseOutputValue(outputValue);
  const shape = attributeShapeProblem(stored);
  if (shape) return resolveKey(type, key) ? shape : 'no such field';
  const issue = writeIssue(type, key, (stored as { value: unknown }).value);
  return issue ? describeWriteIssue(issue) : null;
}

/** Where a change of `key` is shown in the editor: its tab, the entry of a repeated tab (a wheelset's position), field and side. */
export interface KeyLocation {
  tab: TabDef;
  /** The differentiator value of the repeated tab's entry the key lies in (`3` for wheelset 3); else undefined. */
  entry: string | undefined;
  field: FieldDef | null;
  side: ValueSide;
}

export function locateKey(type: OrderType, key: string, values: Readonly<Record<string, unknown>>): KeyLocation | null {
  const resolved = resolveKey(type, key);
  if (!resolved) return null;
  const perEntry = resolved.tab.perEntry;
  const entryValue = perEntry ? valueOf(values[`${resolved.chapterScope}.${perEntry.differentiator.path}`]) : undefined;
  return {
    tab: resolved.tab,
    entry: typeof entryValue === 'string' && entryValue !== '' ? entryValue : undefined,
    field: resolved.field,
    side: resolved.side,
  };
}
