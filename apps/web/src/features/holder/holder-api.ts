import {
  type HolderDocument,
  type HolderDocumentType,
  type HolderOrderDetail,
  type HolderOrderPage,
  type Language,
  holderDocumentSchema,
  holderOrderDetailSchema,
  holderOrderPageSchema,
} from '@vers/domain';
import { call } from '../../app/api.ts';

/** Statuses the holder's screens say themselves (401 keeps its global reaction: back to the sign-in). */
const handles = [0, 400, 403, 404, 409, 429, 500, 502, 503, 504] as const;

/** How many wagons a page of the list shows. */
export const HOLDER_PAGE_SIZE = 25;

/** GET holder/orders: the keeper's wagon orders across all workshops, newest first, optionally searched. */
export function fetchHolderOrders(page: number, search: string): Promise<HolderOrderPage> {
  const query = new URLSearchParams({ offset: String(page * HOLDER_PAGE_SIZE), limit: String(HOLDER_PAGE_SIZE) });
  if (search.trim() !== '') query.set('search', search.trim());
  return call(`holder/orders?${query.toString()}`, holderOrderPageSchema, { handles });
}

/** GET holder/orders/{id}: one of the keeper's orders, read-only; another keeper's answers 404. */
export function fetchHolderOrder(id: string): Promise<HolderOrderDetail> {
  return call(`holder/orders/${encodeURIComponent(id)}`, holderOrderDetailSchema, { handles });
}

/** POST holder/orders/{id}/documents: a new release to service or keeper XML, made in the background. */
export function requestHolderDocument(
  id: string,
  type: HolderDocumentType,
  language: Language,
): Promise<HolderDocument> {
  return call(`holder/orders/${encodeURIComponent(id)}/documents`, holderDocumentSchema, {
    method: 'POST',
    body: { type, language },
    handles,
  });
}
