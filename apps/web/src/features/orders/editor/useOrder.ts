import {
  type Activity,
  type Conflict,
  type Order,
  type OrderFold,
  type OrderState,
  attributeValue,
  compareActivities,
  creationValues,
  extendFold,
  foldOrder,
  orderSchema,
  parseOutputValue,
  undoLastIn,
} from '@vers/domain';
import { Dexie, type ObservabilitySet, RangeSet } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiFailure, call } from '../../../app/api.ts';
import { useSession } from '../../../app/session.ts';
import { takeEarlyOrderRows } from '../../../offline/early-order-rows.ts';
import { orderRows, ownChange } from '../../../offline/order-results.ts';
import { versdb } from '../../../offline/versdb.ts';

export type OrderLoad =
  | { kind: 'loading' }
  | { kind: 'missing' }
  /** Not on this device (outside what it keeps for offline work) and the server cannot be reached. */
  | { kind: 'notKept' }
  | {
      kind: 'ready';
      order: Order;
      state: OrderState;
      /** The open conflicts of the order by field key (shown beside the field until someone decides). */
      conflicts: ReadonlyMap<string, FieldConflicts>;
      /** The fold of the order's rows on this device (for what a change has seen, and decisions). */
      fold: OrderFold;
      /** The change an undo would take back: the user's own last change here; null when there is none. */
      undoable: Activity | null;
    };

/**
 * The order open in the editor (docs/requirements/sync.md#order-loading): from the local store; when it was sent and
 * the server answers, the server's copy replaces it; on a network error the local copy serves. Its state is the fold
 * of its local activities, kept live: an edit shows as soon as it is stored, and a pull as soon as it lands.
 */
export function useOrder(orderId: string): OrderLoad {
  const [fetched, setFetched] = useState<'pending' | 'done' | 'missing' | 'unreachable'>('pending');
  const local = useLiveQuery(() => versdb.orders.get(orderId).then((row) => row ?? null), [orderId]);
  const fold = useOrderFold(orderId);

  useEffect(() => {
    let cancelled = false;
    setFetched('pending');
    void (async () => {
      const stored = await versdb.orders.get(orderId);
      if (stored?.sent === 0) return setFetched('done'); // created offline: only the local copy exists
      try {
        const order = await call(`orders/${orderId}`, orderSchema, { handles: [0, 404, 500, 502, 503, 504] });
        // Opened here: kept for offline work from now on (local-orders.ts); the list's fields of the order stay.
        const now = new Date().toISOString();
        const kept = await versdb.orders.get(orderId);
        await versdb.orders.put({
          ...kept,
          id: order.id,
          sent: 1,
          order: { ...kept?.order, ...order },
          created: now,
          opened: now,
        });
        if (!cancelled) setFetched('done');
      } catch (error) {
        if (cancelled) return;
        if (stored || !(error instanceof ApiFailure)) return setFetched('done');
        setFetched(
          error.status === 404 ? 'missing' : error.status === 0 || error.status >= 502 ? 'unreachable' : 'done',
        );
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [orderId]);

  const request = local?.sent === 0 ? local.request : undefined;
  const state = useMemo(() => {
    if (!fold) return null;
    if (!request) return fold.state;
    // Created offline: the values the server will write at creation are shown until it has the order.
    const created = new Date(local?.created ?? Date.now());
    const start = Object.fromEntries(creationValues(request).map((v) => [v.key, attributeValue(v.value, created)]));
    return { ...fold.state, values: { ...start, ...fold.state.values } };
  }, [fold, request, local?.created]);
  const conflicts = useConflicts(fold);
  const owner = useSession()?.id;
  const undoable = useMemo(() => {
    if (!fold) return null;
    const action = undoLastIn(fold, ownChange(owner));
    return (action && fold.effective.find((row) => row.id === action.id)) ?? null;
  }, [fold, owner]);
  if (fetched === 'missing') return { kind: 'missing' };
  if (fetched === 'unreachable' && !local) return { kind: 'notKept' };
  if (local === undefined || state === null || conflicts === null || !fold) return { kind: 'loading' };
  if (local === null) return fetched === 'pending' ? { kind: 'loading' } : { kind: 'missing' };
  return { kind: 'ready', order: local.order, state, conflicts, fold, undoable };
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
 * The open conflicts by field key (domain `openConflicts`, kept in the fold). A field's entry keeps its identity while
 * its conflicts stay the same, so a field row re-renders only when its own conflicts change.
 */
function useConflicts(fold: OrderFold | undefined): ReadonlyMap<string, FieldConflicts> | null {
  const previous = useRef(new Map<string, FieldConflicts>());
  return useMemo(() => {
    if (!fold) return null;
    const kept = new Map<string, FieldConflicts>();
    for (const [key, conflicts] of fold.conflicts) {
      const next = { conflicts, current: fold.fields.get(key)?.standing };
      const before = previous.current.get(key);
      kept.set(key, before && sameConflicts(before, next) ? before : next);
    }
    previous.current = kept;
    return kept;
  }, [fold]);
}

/**
 * The fold of the order's rows (domain `foldOrder`), kept live without reading or folding the whole order again
 * after each edit: Dexie reports which rows a write touched (its `storagemutated` event, also for writes in other
 * tabs), and only those are read again. New changes of this device that apply on top of the order (every edit)
 * carry the fold forward (`extendFold`); any other change of a row (a push's answer, a pull, an undo) folds the
 * order's rows again, from memory, with each row's value parsed once. A write that Dexie reports as a range (a
 * bulk put of 50 rows or more, a delete by query) reads the whole order again.
 */
function useOrderFold(orderId: string): OrderFold | undefined {
  const [fold, setFold] = useState<OrderFold>();
  useEffect(() => {
    let cancelled = false;
    const byId = new Map<string, Activity>();
    let current: OrderFold | undefined;
    // Parsed values by row id: unchanged values keep their identity across folds, so the editor re-renders only
    // the fields that changed.
    const parsed = new Map<string, { text: string; value: unknown }>();
    const parse = (row: Activity) => {
      const hit = parsed.get(row.id);
      if (hit && hit.text === row.outputValue) return hit.value;
      const value = parseOutputValue(row.outputValue);
      parsed.set(row.id, { text: row.outputValue, value });
      return value;
    };
    const publish = (next: OrderFold) => {
      current = next;
      if (!cancelled) setFold(next);
    };
    const refold = () => publish(foldOrder([...byId.values()], parse));
    // One read at a time, in the order the writes were reported.
    let queue = Promise.resolve();
    const run = (task: () => Promise<void>) => {
      queue = queue.then(task).catch((error: unknown) => console.error('order rows not read', error));
    };
    // The first read may have begun on the way to the editor (early-order-rows.ts).
    let first = true;
    const reloadAll = async () => {
      const all = await (first ? takeEarlyOrderRows(orderId) : orderRows(versdb, orderId));
      first = false;
      byId.clear();
      for (const row of all) byId.set(row.id, row);
      for (const id of parsed.keys()) if (!byId.has(id)) parsed.delete(id);
      refold();
    };
    const reread = async (ids: string[]) => {
      const found = await versdb.orderResults.bulkGet(ids);
      const added: Activity[] = [];
      let changed = false;
      let onlyNew = true;
      ids.forEach((id, i) => {
        const row = found[i];
        const mine = row && row.orderId === orderId ? row : undefined;
        const before = byId.get(id);
        if (!mine && !before) return; // another order's row
        changed = true;
        if (mine) byId.set(id, mine);
        else byId.delete(id);
        if (mine && !before) added.push(mine);
        else onlyNew = false;
      });
      if (!changed || !current) return;
      if (!onlyNew) return refold();
      let next: OrderFold | null = current;
      for (const row of added.sort(compareActivities)) next = next && extendFold(next, row, parse);
      if (next) publish(next);
      else refold();
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
  return fold;
}
