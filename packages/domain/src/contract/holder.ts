import { z } from 'zod';
import { VKM_PATTERN } from '../orders/keeper-marking.ts';
import { orderStatusSchema } from './orders.ts';
import { signOffSchema } from './sign-off.ts';
import { assetStatusSchema } from './assets.ts';
import { LANGUAGES } from '../languages.ts';

/*
 * Issue 22, part 1: keepers and the holder portal. A keeper is a company with one or more Vehicle Keeper Markings
 * (../orders/keeper-marking.ts); a holder user (ROLE_HOLDER) belongs to one keeper and reads, across all workshops, the
 * wagon orders whose keeper marking is the keeper's: nothing else of any workshop.
 */

const id = z.number().int().positive();

/** A VKM as stored: 2 to 5 capital letters (the browser upper-cases what is typed). */
export const vkmSchema = z.string().trim().toUpperCase().regex(VKM_PATTERN);

/** GET keepers (system admins): the keepers with their markings and how many users belong to each. */
export const keeperSchema = z.object({
  id,
  name: z.string(),
  markings: z.array(z.string()),
  users: z.number().int().nonnegative(),
});
export type Keeper = z.infer<typeof keeperSchema>;
export const keeperListSchema = z.array(keeperSchema);

/**
 * POST keepers, PUT keepers/{id}. A marking belongs to one keeper at most (409 KEEPER_MARKING_TAKEN names it);
 * DELETE keepers/{id} answers 409 KEEPER_IN_USE while users belong to it.
 */
export const keeperRequestSchema = z.object({
  name: z.string().trim().min(1).max(200),
  markings: z.array(vkmSchema).min(1).max(50),
});
export type KeeperRequest = z.input<typeof keeperRequestSchema>;

/** The holder's documents: the release to service and the keeper XML export, nothing else. */
export const HOLDER_DOCUMENT_TYPES = ['RELEASE_TO_SERVICE', 'XML_KEEPER'] as const;
export const holderDocumentTypeSchema = z.enum(HOLDER_DOCUMENT_TYPES);
export type HolderDocumentType = z.infer<typeof holderDocumentTypeSchema>;

/** A wagon order as a holder sees it in the list (GET holder/orders). */
export const holderOrderSchema = z.object({
  id: z.uuid(),
  /** The workshop's order number. */
  number: z.string(),
  wagonNumber: z.string().nullable(),
  /** The order's keeper marking as entered (e.g. `D-GATX`). */
  keeperMarking: z.string(),
  status: orderStatusSchema,
  /** Which workshop repairs it: its name and country only. */
  workshop: z.object({ name: z.string(), countryCode: z.string() }),
  created: z.string(),
  lastModified: z.string(),
  /** When the order's current release to service was signed; null while there is none. */
  releasedAt: z.string().nullable(),
});
export type HolderOrder = z.infer<typeof holderOrderSchema>;

/** GET holder/orders: newest first, searched by wagon number or order number (as the workshop list's search). */
export const holderOrderPageQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  search: z.string().max(50).optional(),
});
export type HolderOrderPageQuery = z.infer<typeof holderOrderPageQuerySchema>;

export const holderOrderPageSchema = z.object({ total: z.number().int(), orders: z.array(holderOrderSchema) });
export type HolderOrderPage = z.infer<typeof holderOrderPageSchema>;

/** A generated document of the order the holder may download (GET holder/documents/{id}). */
export const holderDocumentSchema = z.object({
  id: z.uuid(),
  type: holderDocumentTypeSchema,
  status: assetStatusSchema,
  filename: z.string(),
  created: z.string(),
});
export type HolderDocument = z.infer<typeof holderDocumentSchema>;

/**
 * GET holder/orders/{id}: the order, its outgoing values only (key as stored, below the wagon's outgoing root, value as
 * the activity holds it), its status history (status and time, no names of workshop staff), its sign-offs and its
 * release to service and keeper XML documents. Another keeper's order, or one that is not a wagon's: 404.
 */
export const holderOrderDetailSchema = z.object({
  order: holderOrderSchema,
  values: z.record(z.string(), z.unknown()),
  statusHistory: z.array(z.object({ status: orderStatusSchema, at: z.string() })),
  signOffs: z.array(signOffSchema),
  documents: z.array(holderDocumentSchema),
});
export type HolderOrderDetail = z.infer<typeof holderOrderDetailSchema>;

/**
 * POST holder/orders/{id}/documents: asks for a new release to service or keeper XML in a language (the same job as the
 * workshop's export; 409 RELEASE_NOT_SIGNED without a current sign-off). Answers 202 with the document in generation.
 */
export const holderDocumentRequestSchema = z.object({
  type: holderDocumentTypeSchema,
  language: z.enum(LANGUAGES),
});
