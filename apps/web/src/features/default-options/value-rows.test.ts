import { describe, expect, it } from 'vitest';
import { isRowComplete, keepsAValue, pendingChanges, rowsFrom, toggleDelete, upsertRow } from './value-rows.ts';

const rows = rowsFrom(
  [
    { id: 1, value: 'A', text: 'Alpha', global: true },
    { id: 2, value: 'B', text: 'Beta', global: false },
  ],
  'de',
);

describe('value-list rows', () => {
  it('come in the order of their texts in the list language, not by code point', () => {
    const contractors = [
      { id: 1, value: 'WAS', text: 'Wascosa', global: true },
      { id: 2, value: 'CDC', text: 'ČD Cargo, a.s.', global: true },
      { id: 3, value: 'DBC', text: 'DB Cargo', global: true },
    ];
    expect(rowsFrom(contractors, 'de').map((r) => r.value)).toEqual(['CDC', 'DBC', 'WAS']);
  });

  it('marks an existing row for deletion and unmarks it again', () => {
    const marked = toggleDelete(rows, 'v1');
    expect(marked.find((r) => r.id === 1)?.delete).toBe(true);
    expect(toggleDelete(marked, 'v1').find((r) => r.id === 1)?.delete).toBe(false);
  });

  it('removes a new row at once', () => {
    const withNew = upsertRow(rows, { rowKey: 'n1', id: null, value: 'C', text: 'Gamma', global: false });
    expect(withNew).toHaveLength(3);
    expect(toggleDelete(withNew, 'n1')).toHaveLength(2);
  });

  it('marks an edited existing row as modified, not a new one', () => {
    const edited = upsertRow(rows, { rowKey: 'v2', id: 2, value: 'B', text: 'Bravo', global: false });
    expect(edited.find((r) => r.id === 2)).toMatchObject({ text: 'Bravo', modified: true });
    const fresh = upsertRow(rows, { rowKey: 'n1', id: null, value: 'C', text: 'C', global: false });
    expect(
      upsertRow(fresh, { rowKey: 'n1', id: null, value: 'C', text: 'Charlie', global: false }).at(-1),
    ).toMatchObject({ text: 'Charlie', modified: false });
  });

  it('needs key and display text in a row, and one value left in the list', () => {
    expect(isRowComplete({ value: 'A', text: ' ' })).toBe(false);
    expect(isRowComplete({ value: ' ', text: 'x' })).toBe(false);
    expect(isRowComplete({ value: 'A', text: 'x' })).toBe(true);
    expect(keepsAValue(toggleDelete(toggleDelete(rows, 'v1'), 'v2'))).toBe(false);
    expect(keepsAValue(toggleDelete(rows, 'v1'))).toBe(true);
  });

  it('sends new rows as adds, modified as updates and marked as deletes', () => {
    let changed = upsertRow(rows, { rowKey: 'n1', id: null, value: 'C', text: 'Gamma', global: false });
    changed = upsertRow(changed, { rowKey: 'v2', id: 2, value: 'B', text: 'Bravo', global: false });
    changed = toggleDelete(changed, 'v1');
    const pending = pendingChanges(changed);
    expect(pending.add.map((r) => r.value)).toEqual(['C']);
    expect(pending.update.map((r) => r.id)).toEqual([2]);
    expect(pending.remove.map((r) => r.id)).toEqual([1]);
  });
});
