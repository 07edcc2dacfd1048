import { z } from 'zod';

/**
 * Kinds of asset (orders §3 "Asset"): pictures of an order and imported templates; the documents issue adds the
 * generated reports.
 */
export const ASSET_TYPES = { PICTURE: 'PICTURE', IMPORT: 'IMPORT' } as const;
export const assetTypeSchema = z.enum([ASSET_TYPES.PICTURE, ASSET_TYPES.IMPORT]);
export type AssetType = z.infer<typeof assetTypeSchema>;

export const ASSET_STATUSES = { AVAILABLE: 'AVAILABLE', IN_GENERATION: 'IN_GENERATION' } as const;
export const assetStatusSchema = z.enum([ASSET_STATUSES.AVAILABLE, ASSET_STATUSES.IN_GENERATION]);
export type AssetStatus = z.infer<typeof assetStatusSchema>;

/** Largest picture the server takes by default (VERS_MAX_PICTURE_BYTES): a tablet camera's PNG with room. */
export const DEFAULT_MAX_PICTURE_BYTES = 10 * 1024 * 1024;

/**
 * POST assets (orders §7): the file as base64. The id is made by the browser, so a retried upload after a lost
 * answer stores nothing twice; `size` is the decoded length, which the server checks.
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
});
export type CreateAssetRequest = z.infer<typeof createAssetRequestSchema>;

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

/** GET assets/order/{orderId}: the optional filters of the list. */
export const assetListQuerySchema = z.object({
  type: assetTypeSchema.optional(),
  status: assetStatusSchema.optional(),
});
