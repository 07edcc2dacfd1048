import { z } from 'zod';
import type { Values } from '../catalogue/layout.ts';
import { valueOf } from '../catalogue/values.ts';
import { ORDER_ROOTS } from '../orders/paths.ts';
import { type OrderType, ORDER_TYPES } from '../orders/status.ts';
import { type ExportType, exportTypeSchema } from './assets.ts';
import { tafValuesSchema } from './taf-tsi.ts';

/**
 * Import validation states (docs/requirements/orders.md#order-assets validation; polled every {@link
 * VALIDATION_POLL_MS}).
 */
export const VALIDATION_STATUSES = { IN_VALIDATION: 'IN_VALIDATION', VALID: 'VALID', INVALID: 'INVALID' } as const;
export const validationStatusSchema = z.enum(['IN_VALIDATION', 'VALID', 'INVALID']);
export type ValidationStatus = z.infer<typeof validationStatusSchema>;

/**
 * Why an import was refused (docs/requirements/validation.md#xml-import-checks): the browser shows
 * `documents.import.<key>` and the detail.
 */
export const IMPORT_MESSAGE_KEYS = [
  'NOT_VALID_XML',
  'UNEXPECTED_ORDER_TYPE',
  'MISSING_MANDATORY',
  'TOO_LARGE',
] as const;
export const importMessageKeySchema = z.enum(IMPORT_MESSAGE_KEYS);
export type ImportMessageKey = z.infer<typeof importMessageKeySchema>;

/**
 * GET assets/validation-result/{assetId}/{orderType}: the validation of an imported file for an order of that
 * type. `number` is the vehicle number (12 digits), `subNumbers` the numbers of a wagon's wheelsets; `message`
 * the server's English detail (with the line where there is one).
 */
export const importValidationSchema = z.object({
  id: z.uuid(),
  validationStatus: validationStatusSchema,
  messageKey: importMessageKeySchema.nullable(),
  message: z.string().nullable(),
  number: z.string().nullable(),
  subNumbers: z.array(z.string()),
});
export type ImportValidation = z.infer<typeof importValidationSchema>;

/**
 * How often the browser asks for an import's validation while it is IN_VALIDATION
 * (docs/requirements/orders.md#xml-template-import).
 */
export const VALIDATION_POLL_MS = 2000;

/** Most sub-vehicles a document has sections for (the export request's limit). */
export const MAX_SUB_VEHICLES = 8;

/**
 * POST export/{orderId}/{language} (docs/requirements/administration.md#export-request). Built in a pure call: a bundle
 * that never checks an export request (the browser's) leaves it out, and with it the TAF TSI values' schema.
 */
export const exportRequestSchema = /* @__PURE__ */ (() =>
  z.object({
    types: z.array(exportTypeSchema).min(1).max(16),
    /** Sub-vehicles of a wagon (the documents route's anzahlTeilfahrzeuge); the order's own count when absent. */
    subVehicles: z.number().int().min(1).max(MAX_SUB_VEHICLES).optional(),
    /**
     * For XML_TAF_TSI: values the official schema requires that the order lacks (docs/taf-tsi.md); the order's own
     * value wins where it has one. Without a needed value the export is refused with 409 EXPORT_INCOMPLETE.
     */
    tafTsi: tafValuesSchema.optional(),
  }))();
export type ExportRequest = z.infer<typeof exportRequestSchema>;

/** The documents an order type offers: mobile repair and the TAF TSI wagon dataset only exist for wagons. */
export function exportTypesFor(type: OrderType): ExportType[] {
  return exportTypeSchema.options.filter(
    (candidate) => type === ORDER_TYPES.WAGON || (candidate !== 'MOBILE_REPAIR' && candidate !== 'XML_TAF_TSI'),
  );
}

/** File extension and media type of a generated document. */
export function exportMediaType(type: ExportType): { extension: 'pdf' | 'xml'; mime: string } {
  return type.startsWith('XML_')
    ? { extension: 'xml', mime: 'application/xml' }
    : { extension: 'pdf', mime: 'application/pdf' };
}

/**
 * A wagon's sub-vehicles as recorded (outgoing, else incoming AnzahlTeilfahrzeuge), 1 when neither is a whole
 * number from 1: the documents route's anzahlTeilfahrzeuge and the release to service's sections.
 */
export function recordedSubVehicles(type: OrderType, values: Values): number {
  if (type !== ORDER_TYPES.WAGON) return 1;
  for (const side of ['out', 'in'] as const) {
    const count = Number(valueOf(values[`${ORDER_ROOTS.WAGON[side]}.AnzahlTeilfahrzeuge`]));
    if (Number.isInteger(count) && count >= 1) return Math.min(count, MAX_SUB_VEHICLES);
  }
  return 1;
}
