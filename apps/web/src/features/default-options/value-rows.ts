import { type DefaultOptionValue, type Language, byText } from '@vers/domain';

/**
 * A row of the value-list edit screen (docs/requirements/administration.md#value-list-rows): new (id null), modified,
 * or marked for deletion. Nothing reaches the server before Save.
 */
export interface ValueRow {
  /** Stable key for React; the server id once the row exists there. */
  rowKey: string;
  id: number | null;
  value: string;
  text: string;
  global: boolean;
  modified: boolean;
  delete: boolean;
}

/** The list's values in the order of their texts in the list's language (the server's order is by code point). */
export function rowsFrom(values: readonly DefaultOptionValue[], language: Language): ValueRow[] {
  const order = byText(language);
  return [...values]
    .sort((a, b) => order(a.text, b.text))
    .map((v) => ({ rowKey: `v${v.id}`, ...v, modified: false, delete: false }));
}

/** A row can be saved only with both key and display text. */
export const isRowComplete = (row: Pick<ValueRow, 'value' | 'text'>) =>
  row.value.trim() !== '' && row.text.trim() !== '';

/** Saving needs at least one value that stays. */
export const keepsAValue = (rows: readonly ValueRow[]) => rows.some((row) => !row.delete);

/** Deleting a new row removes it at once; an existing row is only marked (and unmarked by a second click). */
export function toggleDelete(rows: readonly ValueRow[], rowKey: string): ValueRow[] {
  const row = rows.find((r) => r.rowKey === rowKey);
  if (!row) return [...rows];
  if (row.id === null) return rows.filter((r) => r.rowKey !== rowKey);
  return rows.map((r) => (r.rowKey === rowKey ? { ...r, delete: !r.delete } : r));
}

export function upsertRow(rows: readonly ValueRow[], edited: Omit<ValueRow, 'modified' | 'delete'>): ValueRow[] {
  const existing = rows.find((r) => r.rowKey === edited.rowKey);
  if (!existing) return [...rows, { ...edited, modified: false, delete: false }];
  return rows.map((r) => (r.rowKey === edited.rowKey ? { ...r, ...edited, modified: r.id !== null } : r));
}

/** What Save sends: new rows are added, modified ones updated, marked ones deleted. */
export function pendingChanges(rows: readonly ValueRow[]) {
  return {
    add: rows.filter((r) => r.id === null && !r.delete),
    update: rows.filter((r) => r.id !== null && r.modified && !r.delete),
    remove: rows.filter((r) => r.id !== null && r.delete),
  };
}
