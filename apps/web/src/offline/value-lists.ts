import { type DefaultOption, type Language, defaultOptionSchema } from '@vers/domain';
import { z } from 'zod';
import { call } from '../app/api.ts';
import { notifications } from '../app/notifications.ts';
import { setValueListProgress } from './value-list-progress.ts';
import type { VersDb } from './versdb.ts';

export type LoadKind = 'full' | 'changes';
/**
 * `updated`: the lists that are new, changed or gone compared with what the device had; 0 on a device that had none
 * (its first load changes nothing the user knew).
 */
export type LoadResult = { ok: true; updated: number } | { ok: false };

/**
 * Loads the value lists of one language into `defaultOptions` (docs/requirements/administration.md#value-list-loading):
 * progress 0 (start), 33 (local data read), 66 (server answered), 100 (saved). A full load (at sign-in)
 * deletes the lists the server no longer has; a later load asks only for lists changed after the newest
 * local `lastModified`.
 */
export async function loadValueLists(
  db: VersDb,
  language: Language,
  kind: LoadKind,
  onProgress: (percent: number) => void = () => {},
): Promise<LoadResult> {
  onProgress(0);
  const local = await db.defaultOptions.where('lang').equals(language).toArray();
  onProgress(33);
  const newest = local.reduce<string | undefined>(
    (max, list) => (max === undefined || list.lastModified > max ? list.lastModified : max),
    undefined,
  );
  const after = kind === 'changes' ? newest : undefined;
  let lists: DefaultOption[];
  try {
    const query = new URLSearchParams({ lang: language, ...(after ? { after } : {}) });
    lists = await call(`default-options-with-values?${query}`, z.array(defaultOptionSchema), {
      // A background load never speaks up: offline the local lists serve, and an ended session is
      // answered by the next call the user makes.
      handles: [0, 401, 403, 502],
    });
  } catch (error) {
    console.error('value lists not loaded', error);
    return { ok: false };
  }
  onProgress(66);
  const before = new Map(local.map((list) => [list.key, JSON.stringify(list)]));
  const changed = lists.filter((list) => before.get(list.key) !== JSON.stringify(list));
  const kept = new Set(lists.map((list) => list.key));
  const gone =
    after === undefined
      ? local.filter((list) => !kept.has(list.key)).map((list) => [list.key, language] as [string, Language])
      : [];
  await db.transaction('rw', db.defaultOptions, async () => {
    await db.defaultOptions.bulkDelete(gone);
    await db.defaultOptions.bulkPut(changed);
  });
  onProgress(100);
  return { ok: true, updated: local.length === 0 ? 0 : changed.length + gone.length };
}

// ---- the app's one loader ----

let running: Promise<LoadResult> | null = null;

/** Runs one load at a time; says so when lists were updated. */
export async function refreshValueLists(
  db: VersDb,
  language: Language,
  kind: LoadKind,
  { announce = true }: { announce?: boolean } = {},
): Promise<LoadResult> {
  while (running) await running.catch(() => undefined);
  running = loadValueLists(db, language, kind, setValueListProgress);
  try {
    const result = await running;
    if (announce && result.ok && result.updated > 0) notifications.show('defaultOptions.updated', 'info');
    return result;
  } finally {
    running = null;
    setValueListProgress(null);
  }
}
