import { type Asset, EXPORT_TYPES, type ExportType, type OrderType, exportTypesFor, resolveKey } from '@vers/domain';
import { ApiFailure } from '../../app/api.ts';
import { fieldLabelKey } from '../orders/editor/labels.ts';
import { missingItemLabel } from '../sign-off/missing-item.ts';

/** The documents of an order among its assets (pictures and imports are not documents), newest first. */
export function documentsOf(assets: readonly Asset[]): Asset[] {
  const types = new Set<string>(EXPORT_TYPES);
  return assets.filter((asset) => types.has(asset.type)).sort((a, b) => (a.created < b.created ? 1 : -1));
}

/** The list is asked for again while a document is still being made. */
export const stillGenerating = (documents: readonly Asset[]) =>
  documents.some((document) => document.status === 'IN_GENERATION');

/** The route's order type segment (`wagon`, `WHEELSET`) as an order type; null when it is neither. */
export function routeOrderType(segment: string | undefined): OrderType | null {
  const type = segment?.toUpperCase();
  return type === 'WAGON' || type === 'WHEELSET' ? type : null;
}

/** The route's optional anzahlTeilfahrzeuge as the export's sub-vehicles; absent or nonsense: none. */
export function routeSubVehicles(segment: string | undefined): number | undefined {
  const count = Number(segment);
  return Number.isInteger(count) && count >= 1 && count <= 8 ? count : undefined;
}

export const offeredTypes = (type: OrderType): ExportType[] => exportTypesFor(type);

export interface Message {
  key: string;
  values?: Record<string, string>;
}

type Translate = (key: string) => string;

/**
 * What the screen says when a documents call fails (docs/requirements/administration.md#error-catalogue): a 400 naming
 * a stored value is "incompatible data type '{field}' under tab '{tab}'", 403 "not enough rights", 404 "file not
 * found", no connection "you are offline"; anything else "error creating / fetching documents".
 */
export function failureMessage(
  error: unknown,
  action: 'create' | 'fetch' | 'download',
  orderType: OrderType,
  t: Translate,
): Message {
  if (!(error instanceof ApiFailure)) return { key: `documents.error.${action === 'create' ? 'create' : 'fetch'}` };
  if (error.status === 0) return { key: 'errors.offline' };
  if (error.status === 403) return { key: 'documents.error.forbidden' };
  if (error.status === 404 && action === 'download') return { key: 'documents.error.notFound' };
  const key = error.fields[0];
  if (error.status === 400 && error.code === 'INCOMPATIBLE_TYPE' && key) {
    const resolved = resolveKey(orderType, key);
    return {
      key: 'documents.error.incompatible',
      values: {
        field: resolved?.field ? t(fieldLabelKey(resolved.field)) : key,
        tab: resolved ? t(`catalogue.tab.${orderType}.${resolved.tab.id}`) : '',
      },
    };
  }
  if (error.status === 409 && error.code === 'RELEASE_NOT_SIGNED') {
    // A release to service is issued only as signed; what it still lacks is named, as the sign-off would.
    const missing = error.fields.map((field) => missingItemLabel(orderType, field, t));
    return missing.length > 0
      ? { key: 'documents.error.releaseMissing', values: { missing: missing.join(', ') } }
      : { key: 'documents.error.releaseNotSigned' };
  }
  return { key: `documents.error.${action === 'create' ? 'create' : 'fetch'}` };
}
