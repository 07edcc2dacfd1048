import { type Order, type OrderState, attributeValue, creationValues, foldActivities, orderSchema } from '@vers/domain';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import { ApiFailure, call } from '../../../app/api.ts';
import { orderRows } from '../../../offline/order-results.ts';
import { versdb } from '../../../offline/versdb.ts';

export type OrderLoad =
  { kind: 'loading' } | { kind: 'missing' } | { kind: 'ready'; order: Order; state: OrderState; unsent: number };

/**
 * The order open in the editor (orders §4 "Order loading"): from the local store; when it was sent and the
 * server answers, the server's copy replaces it; on a network error the local copy serves. Its state is the fold
 * of its local activities, kept live: an edit shows as soon as it is stored, and a pull as soon as it lands.
 */
export function useOrder(orderId: string): OrderLoad {
  const [fetched, setFetched] = useState<'pending' | 'done' | 'missing'>('pending');
  const local = useLiveQuery(() => versdb.orders.get(orderId).then((row) => row ?? null), [orderId]);
  const rows = useLiveQuery(() => orderRows(versdb, orderId), [orderId]);

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
  const state = useMemo(() => {
    if (!rows) return null;
    const folded = foldActivities(rows);
    if (!request) return folded;
    // Created offline: the values the server will write at creation are shown until it has the order.
    const created = new Date(local?.created ?? Date.now());
    const start = Object.fromEntries(creationValues(request).map((v) => [v.key, attributeValue(v.value, created)]));
    return { ...folded, values: { ...start, ...folded.values } };
  }, [rows, request, local?.created]);
  const unsent = useMemo(() => (rows ?? []).filter((row) => row.sent === 0).length, [rows]);
  if (fetched === 'missing') return { kind: 'missing' };
  if (local === undefined || state === null) return { kind: 'loading' };
  if (local === null) return fetched === 'pending' ? { kind: 'loading' } : { kind: 'missing' };
  return { kind: 'ready', order: local.order, state, unsent };
}
