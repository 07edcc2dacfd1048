import 'fake-indexeddb/auto';
import type { DefaultOption } from '@vers/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadValueLists } from './value-lists.ts';
import { VersDb } from './versdb.ts';

function list(key: string, lastModified: string, values: [string, string][] = [['A', 'Alpha']]): DefaultOption {
  return {
    id: key.length,
    key,
    lang: 'de',
    name: key,
    text: key,
    superstructureType: null,
    lastModified,
    amount: values.length,
    values: values.map(([value, text], i) => ({ id: i + 1, value, text, global: true })),
  };
}

let db: VersDb;
let served: DefaultOption[];
let requested: string[];

beforeEach(() => {
  db = new VersDb(`versdb-test-${Math.random()}`);
  requested = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      requested.push(url);
      return new Response(JSON.stringify(served), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await db.delete();
});

describe('loadValueLists', () => {
  it('reports progress 0, 33, 66, 100 and stores the lists by key and language', async () => {
    served = [list('ListA', '2026-01-01T00:00:00.000Z'), list('ListB', '2026-01-02T00:00:00.000Z')];
    const steps: number[] = [];
    // A device's first load: nothing it knew changed, so nothing is reported.
    expect(await loadValueLists(db, 'de', 'full', (p) => steps.push(p))).toEqual({ ok: true, updated: 0 });
    expect(steps).toEqual([0, 33, 66, 100]);
    expect((await db.defaultOptions.get(['ListB', 'de']))?.values[0]?.text).toBe('Alpha');
    expect(requested[0]).toBe('/api/v1/default-options-with-values?lang=de');
  });

  it('reports only the lists that changed, came or went, not every list of a load (issue 20)', async () => {
    served = [list('ListA', '2026-01-01T00:00:00.000Z'), list('ListB', '2026-01-02T00:00:00.000Z')];
    await loadValueLists(db, 'de', 'full');
    // Every app start loads them again: the same lists are no update.
    expect(await loadValueLists(db, 'de', 'full')).toEqual({ ok: true, updated: 0 });
    served = [list('ListA', '2026-02-01T00:00:00.000Z', [['N', 'Neu']]), list('ListC', '2026-02-02T00:00:00.000Z')];
    expect(await loadValueLists(db, 'de', 'full')).toEqual({ ok: true, updated: 3 }); // A changed, C came, B went
  });

  it('a full load deletes lists the server no longer has; other languages stay', async () => {
    await db.defaultOptions.bulkPut([
      list('Old', '2025-01-01T00:00:00.000Z'),
      { ...list('Old', '2025-01-01T00:00:00.000Z'), lang: 'en' },
    ]);
    served = [list('ListA', '2026-01-01T00:00:00.000Z')];
    await loadValueLists(db, 'de', 'full');
    expect((await db.defaultOptions.toArray()).map((l) => `${l.key}/${l.lang}`).sort()).toEqual(['ListA/de', 'Old/en']);
  });

  it('a later load asks only for changes after the newest local list and keeps the rest', async () => {
    await db.defaultOptions.bulkPut([
      list('ListA', '2026-01-01T00:00:00.000Z'),
      list('ListB', '2026-03-01T10:00:00.000Z'),
    ]);
    served = [list('ListA', '2026-04-01T00:00:00.000Z', [['N', 'Neu']])];
    await loadValueLists(db, 'de', 'changes');
    expect(requested[0]).toBe(
      `/api/v1/default-options-with-values?lang=de&after=${encodeURIComponent('2026-03-01T10:00:00.000Z')}`,
    );
    expect((await db.defaultOptions.get(['ListA', 'de']))?.values.map((v) => v.value)).toEqual(['N']);
    expect(await db.defaultOptions.get(['ListB', 'de'])).toBeDefined();
  });

  it('keeps the local lists when the server cannot be reached', async () => {
    await db.defaultOptions.put(list('ListA', '2026-01-01T00:00:00.000Z'));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await loadValueLists(db, 'de', 'full')).toEqual({ ok: false });
    expect(await db.defaultOptions.count()).toBe(1);
  });
});
