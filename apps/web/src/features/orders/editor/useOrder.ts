import {
  type Activity,
  type Conflict,
  type Order,
  type OrderState,
  attributeValue,
  creationValues,
  foldActivities,
  openConflicts,
  orderSchema,
  parseOutputValue,
  standingChanges,
  undoLast,
} from '@vers/domain';
import { Dexie, type ObservabilitySet, RangeSet } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiFailure, call } from '../../../app/api.ts';
import { useSession } from '../../../app/session.ts';
import { orderRows, ownChange } from '../../../offline/order-results.ts';
import { versdb } from '../../../offline/versdb.ts';

export type OrderLoad =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | {
      kind: 'ready';
      order: Order;
      state: OrderState;
      /** The open conflicts of the order by field key (shown beside the field until someone decides). */
      conflicts: ReadonlyMap<string, FieldConflicts>;
      /** The order's rows on this device, as the fold read them (for what a change has seen, and decisions). */
      rows: readonly Activity[];
      /** The change an undo would take back: the user's own last change here; null when there is none. */
      undoable: Activity | null;
    };

/**
 * The order open in the editor (docs/requirements/sync.md#order-loading): from the local store; when it was sent and
 * the server answers, the server's copy replaces it; on a network error the local copy serves. Its state is the fold
 * of its local activities, kept live: an edit shows as soon as it is stored, and a pull as soon as it lands.
 */
export function useOrder(orderId: string): OrderLoad {
  const [fetched, setFetched] = useState<'pending' | 'done' | 'missing'>('pending');
  const local = useLiveQuery(() => versdb.orders.get(orderId).then((row) => row ?? null), [orderId]);
  const rows = useOrderRows(orderId);

  useEffect(() => {
    let cancelled = false;
    setFetched('pending');
    void (async () => {
      const stored = await versdb.orders.get(orderId);
      if (stored?.sent === 0) return setFetched('done'); // created offline: only the local copy exists
      try {
        const order = await call(`orders/${orderId}`, orderSchema, { handles: [0, 404, 500, 502, 503, 504] });
        await versdb.orders.put({ id: order.id, sent: 1, order, created: new Date().toISOString() });
        if (!cancelled) setFetched('done');
      } catch (error) {
        if (cancelled) return;
        setFetched(error instanceof ApiFailure && error.status === 404 && !stored ? 'missing' : 'done');
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [orderId]);

  const request = local?.sent === 0 ? local.request : undefined;
  // Parsed values by row id: a refold after one edit parses one row, and unchanged values keep their identity,
  // so the editor re-renders only the fields that changed.
  const parsed = useRef(new Map<string, { text: string; value: unknown }>());
  const state = useMemo(() => {
    if (!rows) return null;
    const cache = parsed.current;
    const folded = foldActivities(rows, (row) => {
      const hit = cache.get(row.id);
      if (hit && hit.text === row.outputValue) return hit.value;
      const value = parseOutputValue(row.outputValue);
      cache.set(row.id, { text: row.outputValue, value });
      return value;
    });
    if (!request) return folded;
    // Created offline: the values the server will write at creation are shown until it has the order.
    const created = new Date(local?.created ?? Date.now());
    const start = Object.fromEntries(creationValues(request).map((v) => [v.key, attributeValue(v.value, created)]));
    return { ...folded, values: { ...start, ...folded.values } };
  }, [rows, request, local?.created]);
  const conflicts = useConflicts(rows);
  const owner = useSession()?.id;
  const undoable = useMemo(() => {
    if (!rows) return null;
    const action = undoLast(rows, ownChange(owner));
    return (action && rows.find((row) => row.id === action.id)) ?? null;
  }, [rows, owner]);
  if (fetched === 'missing') return { kind: 'missing' };
  if (local === undefined || state === null || conflicts === null || !rows) return { kind: 'loading' };
  if (local === null) return fetched === 'pending' ? { kind: 'loading' } : { kind: 'missing' };
  return { kind: 'ready', order: local.order, state, conflicts, rows, undoable };
}

/** A field's open conflicts and the change whose value it shows now. */
export interface FieldConflicts {
  conflicts: readonly Conflict[];
  current: Activity | undefined;
}

const sameConflicts = (a: FieldConflicts, b: FieldConflicts) =>
  a.current === b.current &&
  a.conflicts.length === b.conflicts.length &&
  a.conflicts.every(
    (conflict, i) => conflict.by === b.conflicts[i]?.by && conflict.replaced === b.conflicts[i]?.replaced,
  );

/**
 * The open conflicts by field key (domain `openConflicts`). A field's entry keeps its identity while its conflicts
 * stay the same, so a field row re-renders only when its own conflicts change.
 */
function useConflicts(rows: Activity[] | undefined): ReadonlyMap<string, FieldConflicts> | null {
  const previous = useRef(new Map<string, FieldConflicts>());
  return useMemo(() => {
    if (!rows) return null;
    const grouped = new Map<string, Conflict[]>();
    for (const conflict of openConflicts(rows)) {
      grouped.set(conflict.key, [...(grouped.get(conflict.key) ?? []), conflict]);
    }
    const standing = grouped.size > 0 ? standingChanges(rows) : new Map<string, Activity>();
    const kept = new Map<string, FieldConflicts>();
    for (const [key, conflicts] of grouped) {
      const next = { conflicts, current: standing.get(key) };
      const before = previous.current.get(key);
      kept.set(key, before && sameConflicts(before, next) ? before : next);
    }
    previous.current = kept;
    return kept;
  }, [rows]);
}

/**
 * The order's rows, kept live without reading the whole order again after each edit: Dexie reports which rows a
 * write touched (its `storagemutated` event, also for writes in other tabs), and only those are read again. A
 * write that Dexie reports as a range (a bulk put of 50 rows or more, a delete by query) reloads the whole order.
 * A live query would read all of them — 5,000 rows of a long order — after every keystroke that is saved.
 */
function useOrderRows(orderId: string): Activity[] | undefined {
  const [rows, setRows] = useState<Activity[]>();
  useEffect(() => {
    let cancelled = false;
    const byId = new Map<string, Activity>();
    const publish = () => {
      if (!cancelled) setRows([...byId.values()]);
    };
    // One read at a time, in the order the writes were reported.
    let queue = Promise.resolve();
    const run = (task: () => Promise<void>) => {
      queue = queue.then(task).catch((error: unknown) => console.error('order rows not read', error));
    };
    const reloadAll = async () => {
      const all = await orderRows(versdb, orderId);
      byId.clear();
      for (const row of all) byId.set(row.id, row);
      publish();
    };
    const reread = async (ids: string[]) => {
      const found = await versdb.orderResults.bulkGet(ids);
      ids.forEach((id, i) => {
        const row = found[i];
        if (row && row.orderId === orderId) byId.set(id, row);
        else byId.delete(id);
      });
      publish();
    };
    run(reloadAll);
    const onMutated = (parts: ObservabilitySet) => {
      const touched = parts[`idb://${versdb.name}/orderResults/`];
      if (!touched) return;
      const ids: string[] = [];
      for (const range of RangeSet(touched)) {
        if (typeof range.from !== 'string' || range.from !== range.to) return run(reloadAll);
        ids.push(range.from);
      }
      if (ids.length > 0) run(() => reread(ids));
    };
    Dexie.on('storagemutated', onMutated);
    return () => {
      cancelled = true;
      Dexie.on.storagemutated.unsubscribe(onMutated);
    };
  }, [orderId]);
  return rows;
}
