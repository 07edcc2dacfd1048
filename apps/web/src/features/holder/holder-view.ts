import {
  type FieldDef,
  type HolderDocument,
  type HolderDocumentType,
  type SignOff,
  type TabDef,
  type Values,
  CATALOGUE,
  ORDER_ROOTS,
  type ChapterDef,
  isFilled,
  layoutTab,
  normalizeSignOffCode,
  perEntrySummary,
  valueOf,
} from '@vers/domain';

/** The holder sees wagon orders only (the server answers 404 for a wheelset order). */
export const HOLDER_ORDER_TYPE = 'WAGON' as const;

/** How often the holder's screens ask the server again while open, as the workshop's sync scheduler does (10 s). */
export const HOLDER_REFRESH_MS = 10_000;
/** While a document is being made, its list is asked for as often as the workshop's documents page does. */
export const HOLDER_DOCUMENT_POLL_MS = 2_000;

/**
 * The detail's values as full result keys: the server gives each key below the wagon's outgoing root; a key that
 * already starts at `$` is kept.
 */
export function outgoingValues(values: Readonly<Record<string, unknown>>): Values {
  const root = ORDER_ROOTS[HOLDER_ORDER_TYPE].out;
  const full: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    full[key.startsWith('$') ? key : `${root}.${key}`] = value;
  }
  return full;
}

export interface ValueRow {
  field: FieldDef;
  key: string;
  value: unknown;
}

/** A group of values as the editor shows them: a chapter, or one entry of a chapter's collection. */
export interface ValueGroup {
  chapter: ChapterDef;
  /** The entry's differentiator and value when the group is one entry of a collection (a bogie, a wheel side). */
  entry?: { differentiator: FieldDef; value: string };
  rows: ValueRow[];
}

/** One section of the read-only view: a tab, or one entry of a tab that repeats per entry (a wagon's wheelset). */
export interface ValueSection {
  tab: TabDef;
  entry?: { differentiator: FieldDef; value: string };
  groups: ValueGroup[];
}

const filledRows = (rows: readonly { field: FieldDef; out?: { key: string } }[], values: Values): ValueRow[] =>
  rows
    .filter((row) => row.out !== undefined && isFilled(values[row.out.key]))
    .map((row) => ({ field: row.field, key: row.out!.key, value: valueOf(values[row.out!.key]) }));

/**
 * The outgoing values laid out as the editor lays them out (the catalogue's tabs, chapters and collection entries, in
 * its order, by the same layout from packages/domain), keeping only what is filled: a holder reads what the wagon left
 * the workshop with, not the empty fields. Filters are off: the holder sees every value recorded.
 */
export function valueSections(values: Values): ValueSection[] {
  const sections: ValueSection[] = [];
  for (const tab of CATALOGUE[HOLDER_ORDER_TYPE]) {
    const views = tab.perEntry
      ? (perEntrySummary(HOLDER_ORDER_TYPE, tab, values)?.entries ?? [])
          .filter((entry) => entry.entry.exists.out)
          .map((entry) => ({
            entry: { differentiator: tab.perEntry!.differentiator, value: entry.entry.value },
            view: layoutTab(HOLDER_ORDER_TYPE, tab, values, entry.entry.value, { unfiltered: true }),
          }))
      : [{ entry: undefined, view: layoutTab(HOLDER_ORDER_TYPE, tab, values, undefined, { unfiltered: true }) }];
    for (const { entry, view } of views) {
      const groups: ValueGroup[] = [];
      for (const chapter of view.chapters) {
        const rows = filledRows(chapter.rows, values);
        if (rows.length > 0) groups.push({ chapter: chapter.chapter, rows });
        for (const item of chapter.collection?.entries ?? []) {
          if (!item.entry.exists.out) continue;
          const entryRows = filledRows(item.rows, values);
          if (entryRows.length === 0) continue;
          const differentiator = chapter.collection!.collection.differentiator;
          groups.push({
            chapter: chapter.chapter,
            entry: { differentiator, value: item.entry.value },
            rows: entryRows,
          });
        }
      }
      if (groups.length > 0) sections.push({ tab, ...(entry ? { entry } : {}), groups });
    }
  }
  return sections;
}

/** The newest document of a type, or null. */
export function newestDocument(documents: readonly HolderDocument[], type: HolderDocumentType): HolderDocument | null {
  return (
    documents.filter((document) => document.type === type).sort((a, b) => (a.created < b.created ? 1 : -1))[0] ?? null
  );
}

/** Whether the holder's documents are still being made: the view asks again until they are not. */
export const documentsGenerating = (documents: readonly HolderDocument[]) =>
  documents.some((document) => document.status === 'IN_GENERATION');

export type CodeCheck =
  | { kind: 'invalid' }
  /** The code is one of this order's sign-offs: which one, and whether it is the current one. */
  | { kind: 'ofThisOrder'; code: string; signOff: SignOff }
  /** A well-formed code that none of this order's sign-offs carries: the check page says whose it is, if anyone's. */
  | { kind: 'notOfThisOrder'; code: string };

/** A printed release's code, typed or scanned, held against the order's sign-offs. */
export function checkCodeAgainstOrder(typed: string, signOffs: readonly SignOff[]): CodeCheck {
  const code = normalizeSignOffCode(typed);
  if (code === null) return { kind: 'invalid' };
  const signOff = signOffs.find((candidate) => candidate.code === code);
  return signOff ? { kind: 'ofThisOrder', code, signOff } : { kind: 'notOfThisOrder', code };
}
