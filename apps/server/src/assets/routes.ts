import {
  ASSET_STATUSES,
  ASSET_TYPES,
  type Asset,
  type AssetStatus,
  type AssetType,
  type CreateAssetRequest,
  assetListQuerySchema,
  assetSchema,
  assetWithDataSchema,
  createAssetRequestSchema,
  errorBodySchema,
} from '@vers/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type SessionUser, sessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { assets } from '../db/schema.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import { ORDER_ROLES, ownOrder } from '../orders/access.ts';
import { requirePng } from './png.ts';
import type { AssetStorage } from './storage.ts';

export type AssetRow = typeof assets.$inferSelect;

export interface AssetRouteOptions {
  storage: AssetStorage;
  /** Largest picture in bytes (VERS_MAX_PICTURE_BYTES). */
  maxPictureBytes: number;
}

const PNG_MIME = 'image/png';
/** Room in a POST body besides the base64 text: the other fields, JSON escapes and whitespace. */
const JSON_MARGIN_BYTES = 64 * 1024;
/** The longest base64 text of `bytes` bytes. */
const base64Length = (bytes: number) => 4 * Math.ceil(bytes / 3);

export function toAsset(row: AssetRow): Asset {
  return {
    id: row.id,
    orderId: row.orderId,
    type: row.type as AssetType,
    status: row.status as AssetStatus,
    filename: row.filename,
    size: row.size,
    creator: row.creator,
    created: row.created.toISOString(),
  };
}

/** Standard base64 with its padding, whitespace tolerated (as the workshop logo); null when it is not base64. */
function decodeBase64(text: string): Buffer | null {
  const clean = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
  return Buffer.from(clean, 'base64');
}

/** `attachment` with the name as ASCII for old clients and as UTF-8 (RFC 6266 / 5987) for the others. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = [...Buffer.from(filename, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9!#$&+.^_`|~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** An asset of the user's own workshop, or 404: another workshop's files do not exist for this user. */
async function ownAsset(db: Db, user: SessionUser, id: string): Promise<AssetRow> {
  const [row] = await db.select().from(assets).where(eq(assets.id, id));
  if (!row || user.workshopId === null || row.workshopId !== user.workshopId) throw notFound('File');
  return row;
}

const errors = {
  400: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
};
const idParams = z.object({ id: z.uuid() });
const orderParams = z.object({ orderId: z.uuid() });
const idsQuery = z.object({
  ids: z
    .string()
    .max(40_000)
    .optional()
    .transform((raw) => [...new Set((raw ?? '').split(',').map((id) => id.trim()))].filter((id) => id !== ''))
    .pipe(z.array(z.uuid()).max(1000)),
});

/**
 * Files of orders (orders §7 "assets"): pictures now; XML imports and generated documents come with the
 * documents issue. Every call reaches only the user's own workshop's files; others' answer 404.
 */
export const assetRoutes =
  (db: Db, options: AssetRouteOptions): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { roles: ORDER_ROLES };
    const { storage, maxPictureBytes } = options;
    // A maximal picture's JSON must reach the handler, so that its 413 names the limit; beyond even that,
    // Fastify answers 413 itself (mapped to PAYLOAD_TOO_LARGE like every body).
    const bodyLimit = Math.max(app.initialConfig.bodyLimit ?? 0, base64Length(maxPictureBytes) + JSON_MARGIN_BYTES);

    /** The picture's bytes, checked: base64, the announced size, the limit, and the PNG rule. */
    function pictureBytes(body: CreateAssetRequest): Buffer {
      const bytes = decodeBase64(body.base64);
      if (!bytes) throw new ApiError(400, 'VALIDATION', 'The file content is not base64', ['body.base64']);
      if (bytes.length !== body.size) {
        throw new ApiError(400, 'VALIDATION', `The file has ${bytes.length} bytes, not ${body.size} as announced`, [
          'body.size',
        ]);
      }
      if (bytes.length > maxPictureBytes) {
        throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `A picture may have at most ${maxPictureBytes} bytes`);
      }
      requirePng(bytes, 'The picture');
      return bytes;
    }

    async function createPicture(user: SessionUser, body: CreateAssetRequest): Promise<Asset> {
      if (user.workshopId === null) throw forbidden('Only workshop users upload pictures');
      if (!body.orderId) throw new ApiError(400, 'VALIDATION', 'A picture needs its orderId', ['body.orderId']);
      const bytes = pictureBytes(body);
      const order = await ownOrder(db, user, body.orderId);
      const [inserted] = await db
        .insert(assets)
        .values({
          id: body.id,
          orderId: order.id,
          workshopId: order.workshopId,
          type: ASSET_TYPES.PICTURE,
          status: ASSET_STATUSES.AVAILABLE,
          filename: body.filename,
          size: bytes.length,
          mime: PNG_MIME,
          creator: `${user.firstName} ${user.lastName}`,
          created: body.created ? new Date(body.created) : new Date(),
          createdBy: user.id,
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) {
        try {
          await storage.put(inserted.id, bytes);
        } catch (error) {
          await db.delete(assets).where(eq(assets.id, inserted.id)); // no row without its content
          throw error;
        }
        return toAsset(inserted);
      }
      // The id is taken: a retried upload (its answer was lost) answers what is stored, unchanged.
      const conflict = () => new ApiError(409, 'CONFLICT', 'This file id is already used for another file');
      const [existing] = await db.select().from(assets).where(eq(assets.id, body.id));
      if (
        !existing ||
        existing.workshopId !== order.workshopId ||
        existing.type !== ASSET_TYPES.PICTURE ||
        existing.orderId !== order.id ||
        existing.filename !== body.filename ||
        existing.size !== bytes.length
      ) {
        throw conflict();
      }
      const stored = await storage.get(existing.id);
      // No content: the first upload stopped between its row and its content; this one completes it.
      if (stored === null) await storage.put(existing.id, bytes);
      else if (!bytes.equals(stored)) throw conflict();
      return toAsset(existing);
    }

    app.post(
      '/assets',
      {
        config,
        bodyLimit,
        schema: {
          tags: ['assets'],
          description:
            'Uploads a file as base64. A PICTURE needs the orderId of an order of the own workshop and must be a ' +
            `complete PNG of at most VERS_MAX_PICTURE_BYTES (now ${maxPictureBytes}) bytes, else 400 NOT_PNG or ` +
            '413. A repeated call with the same id and content answers the stored asset; other content under the ' +
            'same id answers 409. IMPORT comes with the documents issue (400 for now).',
          body: createAssetRequestSchema,
          response: { 200: assetSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        if (request.body.type === ASSET_TYPES.IMPORT) {
          throw new ApiError(400, 'BAD_REQUEST', 'XML import comes with the documents issue');
        }
        return createPicture(user, request.body);
      },
    );

    app.get(
      '/assets/order/:orderId',
      {
        config,
        schema: {
          tags: ['assets'],
          description: 'The files of an order of the own workshop, newest first; optionally of one type or status.',
          params: orderParams,
          querystring: assetListQuerySchema,
          response: { 200: z.array(assetSchema), ...errors },
        },
      },
      async (request) => {
        const order = await ownOrder(db, sessionUser(request), request.params.orderId);
        const { type, status } = request.query;
        const rows = await db
          .select()
          .from(assets)
          .where(
            and(
              eq(assets.orderId, order.id),
              type ? eq(assets.type, type) : undefined,
              status ? eq(assets.status, status) : undefined,
            ),
          )
          .orderBy(desc(assets.created), desc(assets.id));
        return rows.map(toAsset);
      },
    );

    // `assets/?ids=` is how the spec writes it; `assets?ids=` the same call, which the OpenAPI document shows.
    for (const path of ['/assets', '/assets/'] as const) {
      app.get(
        path,
        {
          config,
          schema: {
            hide: path === '/assets/',
            tags: ['assets'],
            description:
              'The files of the own workshop among `ids` (a comma list), in that order; others are left out.',
            querystring: idsQuery,
            response: { 200: z.array(assetSchema), ...errors },
          },
        },
        async (request) => {
          const user = sessionUser(request);
          const ids = request.query.ids;
          if (user.workshopId === null || ids.length === 0) return [];
          const rows = await db
            .select()
            .from(assets)
            .where(and(eq(assets.workshopId, user.workshopId), inArray(assets.id, ids)));
          const byId = new Map(rows.map((row) => [row.id, row]));
          return ids.flatMap((id) => {
            const row = byId.get(id);
            return row ? [toAsset(row)] : [];
          });
        },
      );
    }

    app.get(
      '/assets/:id',
      {
        config,
        schema: {
          tags: ['assets'],
          description: 'One file of the own workshop with its content as base64.',
          params: idParams,
          response: { 200: assetWithDataSchema, ...errors },
        },
      },
      async (request) => {
        const row = await ownAsset(db, sessionUser(request), request.params.id);
        const bytes = await storage.get(row.id);
        if (bytes === null) throw notFound('File');
        return {
          ...toAsset(row),
          base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
        };
      },
    );

    app.get(
      '/assets/download/:id',
      {
        config,
        schema: {
          tags: ['assets'],
          description: 'One file of the own workshop as it is (e.g. image/png), as an attachment with its filename.',
          params: idParams,
          response: { 200: z.any().describe('The bytes of the file, with its Content-Type'), ...errors },
        },
      },
      async (request, reply) => {
        const row = await ownAsset(db, sessionUser(request), request.params.id);
        const bytes = await storage.get(row.id);
        if (bytes === null) throw notFound('File');
        return reply
          .type(row.mime)
          .header('content-disposition', attachment(row.filename))
          .header('x-content-type-options', 'nosniff')
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      },
    );

    app.delete(
      '/assets/:id',
      {
        config,
        schema: { tags: ['assets'], params: idParams, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        const row = await ownAsset(db, sessionUser(request), request.params.id);
        await db.delete(assets).where(eq(assets.id, row.id));
        await storage.delete(row.id); // after the row: content without a row is never shown
        return reply.status(204).send(null);
      },
    );
  };
