import {
  ASSET_STATUSES,
  ASSET_TYPES,
  type Asset,
  type AssetStatus,
  type AssetType,
  type CreateAssetRequest,
  assetListQuerySchema,
  assetSchema,
  assetThumbnailSchema,
  assetWithDataSchema,
  createAssetRequestSchema,
  errorBodySchema,
  exportMediaType,
  exportTypeSchema,
  type OrderType,
  importValidationSchema,
  orderTypeSchema,
} from '@vers/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type SessionUser, sessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { assets } from '../db/schema.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import { noContent } from '../http/openapi.ts';
import { bury, missing, TOMBSTONE_KINDS } from '../orders/tombstones.ts';
import { ownOrder } from '../orders/access.ts';
import { requirePng } from './png.ts';
import type { AssetStorage } from './storage.ts';
import {
  type Thumbnail,
  checkThumbnail,
  makeThumbnail,
  MAX_THUMBNAIL_BYTES,
  MAX_THUMBNAIL_SIDE,
  THUMBNAIL_SIDE,
} from './thumbnail.ts';
import { MAX_XML_BYTES } from '../imports/xml-import.ts';
import { type StoredValidation, toImportValidation } from '../imports/validation.ts';
import { type JobQueue, QUEUES } from '../jobs/queue.ts';

export type AssetRow = typeof assets.$inferSelect;

export interface AssetRouteOptions {
  storage: AssetStorage;
  jobs: Pick<JobQueue, 'send'>;
  /** Largest picture in bytes (VERS_MAX_PICTURE_BYTES). */
  maxPictureBytes: number;
}

const PNG_MIME = 'image/png';
const XML_MIME = 'application/xml';
/** What a file can be: a picture, an XML import, or a generated document (PDF or XML). */
const FILE_MIMES = [...new Set([PNG_MIME, XML_MIME, ...exportTypeSchema.options.map((t) => exportMediaType(t).mime)])];
const fileBytesSchema = z.custom<Buffer>((value) => Buffer.isBuffer(value)).meta({ type: 'string', format: 'binary' });
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
  if (!row) throw await missing(db, 'File', id, user.workshopId);
  if (user.workshopId === null || row.workshopId !== user.workshopId) throw notFound('File');
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
 * Files of orders (docs/requirements/orders.md#asset-calls): pictures now; XML imports and generated documents come
 * with the documents issue. Every call reaches only the user's own workshop's files; others' answer 404.
 */
export const assetRoutes =
  (db: Db, options: AssetRouteOptions): FastifyPluginAsyncZod =>
  async (app) => {
    const { storage, maxPictureBytes } = options;
    // A maximal picture's JSON must reach the handler, so that its 413 names the limit; beyond even that,
    // Fastify answers 413 itself (mapped to PAYLOAD_TOO_LARGE like every body).
    const bodyLimit = Math.max(app.initialConfig.bodyLimit ?? 0, base64Length(maxPictureBytes) + JSON_MARGIN_BYTES);

    /** The file's bytes, checked: base64 and the announced size. */
    function fileBytes(body: CreateAssetRequest, limit: number, what: string): Buffer {
      const bytes = decodeBase64(body.base64);
      if (!bytes) throw new ApiError(400, 'VALIDATION', 'The file content is not base64', ['body.base64']);
      if (bytes.length !== body.size) {
        throw new ApiError(400, 'VALIDATION', `The file has ${bytes.length} bytes, not ${body.size} as announced`, [
          'body.size',
        ]);
      }
      if (bytes.length > limit) {
        throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `${what} may have at most ${limit} bytes`);
      }
      return bytes;
    }

    /**
     * Stores a new upload, or, when its id is taken, answers the stored one if it is the same file (a retried
     * upload whose answer was lost) and 409 if not.
     */
    async function storeUpload(row: typeof assets.$inferInsert, bytes: Buffer): Promise<AssetRow> {
      const [inserted] = await db.insert(assets).values(row).onConflictDoNothing().returning();
      if (inserted) {
        try {
          await storage.put(inserted.id, bytes);
        } catch (error) {
          await db.delete(assets).where(eq(assets.id, inserted.id)); // no row without its content
          throw error;
        }
        return inserted;
      }
      const conflict = () => new ApiError(409, 'CONFLICT', 'This file id is already used for another file');
      const [existing] = await db.select().from(assets).where(eq(assets.id, row.id));
      if (
        !existing ||
        existing.workshopId !== row.workshopId ||
        existing.type !== row.type ||
        existing.orderId !== (row.orderId ?? null) ||
        existing.filename !== row.filename ||
        existing.size !== bytes.length
      ) {
        throw conflict();
      }
      const stored = await storage.get(existing.id);
      // No content: the first upload stopped between its row and its content; this one completes it.
      if (stored === null) await storage.put(existing.id, bytes);
      else if (!bytes.equals(stored)) throw conflict();
      return existing;
    }

    /** The thumbnail sent with a picture, checked; undefined when none was sent. */
    function sentThumbnail(body: CreateAssetRequest): Thumbnail | undefined {
      if (body.thumbnail === undefined) return undefined;
      const bytes = decodeBase64(body.thumbnail);
      const checked = bytes ? checkThumbnail(bytes) : { problem: 'is not base64' };
      if (!bytes || 'problem' in checked) {
        throw new ApiError(400, 'VALIDATION', `The thumbnail ${'problem' in checked ? checked.problem : ''}`, [
          'body.thumbnail',
        ]);
      }
      return { mime: checked.mime, bytes };
    }

    async function createPicture(user: SessionUser, body: CreateAssetRequest): Promise<Asset> {
      if (user.workshopId === null) throw forbidden('Only workshop users upload pictures');
      if (!body.orderId) throw new ApiError(400, 'VALIDATION', 'A picture needs its orderId', ['body.orderId']);
      const bytes = fileBytes(body, maxPictureBytes, 'A picture');
      requirePng(bytes, 'The picture');
      const thumbnail = sentThumbnail(body);
      const order = await ownOrder(db, user, body.orderId);
      const row = await storeUpload(
        {
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
        },
        bytes,
      );
      // Kept beside the picture; a retry's thumbnail changes nothing once one is stored.
      if (thumbnail) await storage.putThumbnail(row.id, thumbnail);
      return toAsset(row);
    }

    /** An order template (docs/xml-format.md): stored at once, checked by a background job. */
    async function createImport(user: SessionUser, body: CreateAssetRequest): Promise<Asset> {
      if (user.workshopId === null) throw forbidden('Only workshop users import orders');
      const bytes = fileBytes(body, MAX_XML_BYTES, 'An XML import file');
      const pending: StoredValidation = { validationStatus: 'IN_VALIDATION' };
      const row = await storeUpload(
        {
          id: body.id,
          orderId: null,
          workshopId: user.workshopId,
          type: ASSET_TYPES.IMPORT,
          status: ASSET_STATUSES.AVAILABLE,
          filename: body.filename,
          size: bytes.length,
          mime: XML_MIME,
          creator: `${user.firstName} ${user.lastName}`,
          created: new Date(),
          createdBy: user.id,
          validation: pending,
        },
        bytes,
      );
      // Sent again on a retry too: the job does nothing for a file already checked.
      if ((row.validation as StoredValidation | null)?.validationStatus === 'IN_VALIDATION') {
        await options.jobs.send(QUEUES.importValidation, { assetId: row.id });
      }
      return toAsset(row);
    }

    app.post(
      '/assets',
      {
        bodyLimit,
        schema: {
          tags: ['assets'],
          summary: 'Upload a file',
          description:
            'Uploads a file as base64. A PICTURE needs the orderId of an order of the own workshop and must be a ' +
            `complete PNG of at most VERS_MAX_PICTURE_BYTES (now ${maxPictureBytes}) bytes, else 400 NOT_PNG or ` +
            `413. It may bring its thumbnail for lists (\`thumbnail\`, base64 of a JPEG or PNG of at most ` +
            `${MAX_THUMBNAIL_BYTES} bytes and ${MAX_THUMBNAIL_SIDE} px a side, else 400 VALIDATION); without ` +
            'one the server makes it when GET assets/thumbnail/{id} first asks. A repeated call with the same id and content answers the stored asset; other content under the ' +
            'same id answers 409. An IMPORT is an XML order template (docs/xml-format.md) of at most 2 MB; its ' +
            'check runs in the background (GET assets/validation-result/{id}/{orderType}).',
          body: createAssetRequestSchema,
          response: { 200: assetSchema, ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        if (request.body.type === ASSET_TYPES.IMPORT) return createImport(user, request.body);
        if (request.body.type === ASSET_TYPES.PICTURE) return createPicture(user, request.body);
        throw new ApiError(400, 'VALIDATION', 'Documents are generated by POST export, not uploaded', ['body.type']);
      },
    );

    app.get(
      '/assets/order/:orderId',
      {
        schema: {
          tags: ['assets'],
          summary: "List an order's files",
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
          schema: {
            hide: path === '/assets/',
            tags: ['assets'],
            summary: 'List files by id',
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
        schema: {
          tags: ['assets'],
          summary: 'Get a file with its content',
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
      '/assets/thumbnail/:id',
      {
        schema: {
          tags: ['assets'],
          summary: "Get a picture's thumbnail",
          description:
            'A small rendition of a picture of the own workshop for lists, as base64: the one sent with it, or a ' +
            `JPEG of at most ${THUMBNAIL_SIDE} px a side that the server makes at the first call and keeps. Where ` +
            'the picture cannot be decoded, the picture itself (image/png). Other files answer 404.',
          params: idParams,
          response: { 200: assetThumbnailSchema, ...errors },
        },
      },
      async (request, reply) => {
        const row = await ownAsset(db, sessionUser(request), request.params.id);
        if (row.type !== ASSET_TYPES.PICTURE) throw notFound('Picture');
        let thumbnail = await storage.getThumbnail(row.id);
        if (!thumbnail) {
          const picture = await storage.get(row.id);
          if (picture === null) throw notFound('File');
          thumbnail = makeThumbnail(picture);
          if (thumbnail) await storage.putThumbnail(row.id, thumbnail);
          else thumbnail = { mime: 'image/png', bytes: picture };
        }
        // A picture never changes under its id (other content is a 409): the answer may be kept.
        void reply.header('cache-control', 'private, max-age=31536000, immutable');
        return {
          id: row.id,
          mime: thumbnail.mime,
          base64: Buffer.from(thumbnail.bytes.buffer, thumbnail.bytes.byteOffset, thumbnail.bytes.byteLength).toString(
            'base64',
          ),
        };
      },
    );

    app.get(
      '/assets/validation-result/:id/:orderType',
      {
        schema: {
          tags: ['assets'],
          summary: "Get an XML import's check result",
          description:
            'The check of an uploaded XML template for an order of `orderType`: IN_VALIDATION while the ' +
            'background job runs (ask again every 2 s), then VALID with the vehicle number and, for a wagon, its ' +
            "wheelsets' numbers, or INVALID with messageKey and message. A file of the other order type is INVALID " +
            '(UNEXPECTED_ORDER_TYPE).',
          params: z.object({ id: z.uuid(), orderType: orderTypeSchema }),
          response: { 200: importValidationSchema, ...errors },
        },
      },
      async (request) => {
        const row = await ownAsset(db, sessionUser(request), request.params.id);
        if (row.type !== ASSET_TYPES.IMPORT) throw notFound('Import file');
        return toImportValidation(
          row.id,
          row.validation as StoredValidation | null,
          request.params.orderType as OrderType,
        );
      },
    );

    app.get(
      '/assets/download/:id',
      {
        schema: {
          tags: ['assets'],
          summary: 'Download a file',
          description: 'One file of the own workshop as it is (e.g. image/png), as an attachment with its filename.',
          params: idParams,
          response: {
            200: {
              description: 'The bytes of the file, with its Content-Type',
              content: Object.fromEntries(FILE_MIMES.map((mime) => [mime, { schema: fileBytesSchema }])),
            },
            ...errors,
          },
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
        schema: {
          tags: ['assets'],
          summary: 'Delete a file',
          params: idParams,
          response: { 204: noContent, ...errors },
        },
      },
      async (request, reply) => {
        const row = await ownAsset(db, sessionUser(request), request.params.id);
        await db.transaction(async (tx) => {
          await tx.delete(assets).where(eq(assets.id, row.id));
          await bury(tx, TOMBSTONE_KINDS.ASSET, row.id, row.workshopId);
        });
        await storage.delete(row.id); // after the row: content without a row is never shown
        return reply.status(204).send();
      },
    );
  };
