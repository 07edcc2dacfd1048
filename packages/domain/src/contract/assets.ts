import { z } from 'zod';

/** The PDF documents of an order (docs/requirements/administration.md#documents-screen). */
export const PDF_DOCUMENT_TYPES = [
  'PREVIEW',
  'MOBILE_REPAIR',
  'RELEASE_TO_SERVICE',
  'WHEELSET_REPAIR_SHEET',
  'WHEELSET_REPORT',
] as const;
/**
 * The XML exports: our own format for the holder/keeper (outgoing values) and for the workshop (the whole order),
 * both valid against docs/xml/vers-*.xsd, and the holder's export as a TAF TSI RollingStockDataset.
 */
export const XML_EXPORT_TYPES = ['XML_KEEPER', 'XML_WORKSHOP', 'XML_TAF_TSI'] as const;
export const EXPORT_TYPES = [...PDF_DOCUMENT_TYPES, ...XML_EXPORT_TYPES] as const;
export const exportTypeSchema = z.enum(EXPORT_TYPES);
export type ExportType = z.infer<typeof exportTypeSchema>;
export type PdfDocumentType = (typeof PDF_DOCUMENT_TYPES)[number];
export type XmlExportType = (typeof XML_EXPORT_TYPES)[number];

/**
 * Kinds of asset (docs/requirements/orders.md#order-assets): pictures of an order, imported templates, and the
 * generated documents and exports.
 */
export const ASSET_TYPES = { PICTURE: 'PICTURE', IMPORT: 'IMPORT' } as const;
export const assetTypeSchema = z.enum([ASSET_TYPES.PICTURE, ASSET_TYPES.IMPORT, ...EXPORT_TYPES]);
export type AssetType = z.infer<typeof assetTypeSchema>;

/** A document is IN_GENERATION until its job stored it (AVAILABLE) or gave up on it (FAILED). */
export const ASSET_STATUSES = { AVAILABLE: 'AVAILABLE', IN_GENERATION: 'IN_GENERATION', FAILED: 'FAILED' } as const;
export const assetStatusSchema = z.enum([
  ASSET_STATUSES.AVAILABLE,
  ASSET_STATUSES.IN_GENERATION,
  ASSET_STATUSES.FAILED,
]);
export type AssetStatus = z.infer<typeof assetStatusSchema>;

/** Largest picture the server takes by default (VERS_MAX_PICTURE_BYTES): a tablet camera's PNG with room. */
export const DEFAULT_MAX_PICTURE_BYTES = 10 * 1024 * 1024;

/**
 * POST assets (docs/requirements/orders.md#asset-calls): the file as base64. The id is made by the browser, so a
 * retried upload after a lost answer stores nothing twice; `size` is the decoded length, which the server checks.
 */
export const createAssetRequestSchema = z.object({
  id: z.uuid(),
  type: assetTypeSchema,
  filename: z.string().min(1).max(255),
  /** The server's own limit (VERS_MAX_PICTURE_BYTES, answered with 413) is the one that counts. */
  base64: z.string(),
  size: z.number().int().nonnegative(),
  orderId: z.uuid().optional(),
  /** Who took it, as shown beside it; the server records its own creator too. */
  creator: z.string().max(200).optional(),
  /** When it was taken (ISO), which may be long before the upload. */
  created: z.iso.datetime({ offset: true }).optional(),
  /**
   * A picture's small rendition for lists, as base64: a JPEG or PNG of at most 96 KB and 512 px a side (a project
   * addition; without it the server makes one when it is first asked for).
   */
  thumbnail: z.string().max(200_000).optional(),
});
export type CreateAssetRequest = z.infer<typeof createAssetRequestSchema>;

/** The parts of POST assets/upload that carry the file and its thumbnail (a project addition). */
export const ASSET_FORM_FILES = { file: 'file', thumbnail: 'thumbnail' } as const;

/**
 * POST assets/upload (a project addition): the same upload as POST assets as multipart/form-data, the file as
 * bytes in the part `file` (and a picture's thumbnail in `thumbnail`) instead of base64 in JSON, so a browser
 * sends a kept Blob as it is, without making base64 and JSON text of it. These are the text fields; `size` is
 * still the file's length, which the server checks.
 */
export const createAssetFormFieldsSchema = createAssetRequestSchema
  .omit({ base64: true, thumbnail: true })
  .extend({ size: z.coerce.number().int().nonnegative() });
export type CreateAssetFormFields = z.infer<typeof createAssetFormFieldsSchema>;

/** An asset without its content: what lists show. */
export const assetSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid().nullable(),
  type: assetTypeSchema,
  status: assetStatusSchema,
  filename: z.string(),
  size: z.number().int(),
  creator: z.string(),
  created: z.string(),
});
export type Asset = z.infer<typeof assetSchema>;

/** GET assets/{id}: the asset with its content. */
export const assetWithDataSchema = assetSchema.extend({ base64: z.string() });
export type AssetWithData = z.infer<typeof assetWithDataSchema>;

/** GET assets/thumbnail/{id}: a picture's small rendition for lists (a project addition). */
export const assetThumbnailSchema = z.object({
  id: z.uuid(),
  /** image/jpeg or image/png; the picture itself (image/png) where no smaller one could be made. */
  mime: z.enum(['image/jpeg', 'image/png']),
  base64: z.string(),
});
export type AssetThumbnail = z.infer<typeof assetThumbnailSchema>;

/** GET assets/order/{orderId}: the optional filters of the list. */
export const assetListQuerySchema = z.object({
  type: assetTypeSchema.optional(),
  status: assetStatusSchema.optional(),
});
