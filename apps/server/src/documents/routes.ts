import {
  ASSET_STATUSES,
  type ExportRequest,
  type ExportType,
  LANGUAGES,
  type Language,
  type OrderType,
  assetSchema,
  attributeProblem,
  errorBodySchema,
  exportMediaType,
  exportRequestSchema,
  exportTypesFor,
  recordedSubVehicles,
  releaseGaps,
  resolveKey,
} from '@vers/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { orderValues } from '../activity/append.ts';
import { type AssetRow, toAsset } from '../assets/routes.ts';
import { type SessionUser, sessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { assets } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { type JobQueue, QUEUES } from '../jobs/queue.ts';
import { type OrderRow, ownOrder } from '../orders/access.ts';
import { currentRelease } from '../sign-off/records.ts';
import { type GenerationRequest, documentFilename } from './generate.ts';
import { missingTafValues } from './taf-tsi/rolling-stock-dataset.ts';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The first stored value that does not fit its field, as a JSON path the browser maps to field and tab. */
function incompatibleValue(type: OrderType, values: Record<string, unknown>): { key: string; problem: string } | null {
  for (const [key, stored] of Object.entries(values)) {
    const resolved = resolveKey(type, key);
    if (!resolved) return { key, problem: 'not a field of this order type' };
    const problem = resolved.field ? attributeProblem(resolved.field, stored) : null;
    if (problem) return { key, problem };
  }
  return null;
}

export interface DocumentsRequest {
  order: OrderRow;
  /** Who asks: named on the documents as their issuer. */
  user: Pick<SessionUser, 'id' | 'firstName' | 'lastName'>;
  types: readonly ExportType[];
  language: Language;
  tafTsi?: ExportRequest['tafTsi'];
  subVehicles?: ExportRequest['subVehicles'];
  /** The server's address as the caller reached it, for the release's check link. */
  origin: string;
}

/**
 * Checks an order's documents can be made and starts their generation jobs; answers the new assets IN_GENERATION.
 * The one way documents are made: the workshop's export (POST export) and the holder's request (holder/routes.ts).
 */
export async function startDocuments(db: Db, jobs: Pick<JobQueue, 'send'>, ask: DocumentsRequest): Promise<AssetRow[]> {
  const { order, user, language } = ask;
  const orderType = order.type as OrderType;
  const offered = exportTypesFor(orderType);
  const types = [...new Set(ask.types)];
  const unknown = types.find((type) => !offered.includes(type));
  if (unknown) {
    throw new ApiError(400, 'VALIDATION', `A ${orderType} order has no document ${unknown}`, ['body.types']);
  }
  const values = await orderValues(db, order.id);
  const incompatible = incompatibleValue(orderType, values);
  if (incompatible) {
    throw new ApiError(400, 'INCOMPATIBLE_TYPE', `${incompatible.key}: ${incompatible.problem}`, [incompatible.key]);
  }
  // A release to service is issued only as signed: the newest sign-off "released to service" that no
  // reopening superseded, which the sign-off gave only to a complete release (issue 21).
  const release = types.includes('RELEASE_TO_SERVICE') ? await currentRelease(db, order.id) : undefined;
  if (types.includes('RELEASE_TO_SERVICE') && !release) {
    const gaps = releaseGaps(orderType, values);
    throw new ApiError(
      409,
      'RELEASE_NOT_SIGNED',
      'A release to service needs a sign-off "released to service" (POST orders/{id}/sign-off)',
      gaps.map((gap) => gap.key),
    );
  }
  if (types.includes('XML_TAF_TSI')) {
    const missing = missingTafValues({ values, given: ask.tafTsi ?? {} });
    if (missing.length > 0) {
      throw new ApiError(
        409,
        'EXPORT_INCOMPLETE',
        `The TAF TSI dataset needs values the order lacks: ${missing.join(', ')}`,
        undefined,
        missing,
      );
    }
  }
  const generation: GenerationRequest = {
    language,
    subVehicles: ask.subVehicles ?? recordedSubVehicles(orderType, values),
    issuedBy: { firstName: user.firstName, lastName: user.lastName },
    ...(release ? { signOffId: release.id, origin: ask.origin } : {}),
    ...(types.includes('XML_TAF_TSI') && ask.tafTsi ? { tafTsi: ask.tafTsi } : {}),
  };
  const now = new Date();
  const rows = await db
    .insert(assets)
    .values(
      types.map((type: ExportType) => ({
        id: randomUUID(),
        orderId: order.id,
        workshopId: order.workshopId,
        type,
        status: ASSET_STATUSES.IN_GENERATION,
        filename: documentFilename(order.number, type, language),
        size: 0,
        mime: exportMediaType(type).mime,
        creator: `${user.firstName} ${user.lastName}`,
        created: now,
        createdBy: user.id,
        request: generation,
      })),
    )
    .returning();
  for (const row of rows) await jobs.send(QUEUES.documentGeneration, { assetId: row.id });
  return rows;
}

/** POST export (docs/requirements/administration.md#document-calls): documents are made by background jobs. */
export const documentRoutes =
  (db: Db, jobs: Pick<JobQueue, 'send'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/export/:orderId/:language',
      {
        schema: {
          tags: ['documents'],
          summary: "Generate an order's documents",
          description:
            'Starts generating the listed documents of an order in `language`; answers them IN_GENERATION at once. ' +
            'GET assets/order/{orderId} shows them AVAILABLE (or FAILED) when their jobs are done; GET ' +
            'assets/download/{id} gives the file. 400 INCOMPATIBLE_TYPE with `fields: [key]` when a stored value ' +
            'does not fit its field. RELEASE_TO_SERVICE is issued only for an order signed off "released to service" ' +
            'and not reopened since: 409 RELEASE_NOT_SIGNED otherwise, `fields` naming what the release still lacks. ' +
            'XML_TAF_TSI: the official schema requires values a wagon order may lack (ECM ' +
            "certificate, registration country, ...); `tafTsi` gives them, the order's own value winning where it has " +
            'one. 409 EXPORT_INCOMPLETE with `missing: [key, ...]` (the `tafTsi` keys, in schema order) when the order ' +
            'lacks some and `tafTsi` does not give them; then no document is started.',
          params: z.object({ orderId: z.uuid(), language: z.enum(LANGUAGES) }),
          body: exportRequestSchema,
          response: { 200: z.array(assetSchema), ...errors },
        },
      },
      async (request) => {
        const user = sessionUser(request);
        const order = await ownOrder(db, user, request.params.orderId);
        const rows = await startDocuments(db, jobs, {
          order,
          user,
          types: request.body.types,
          language: request.params.language as Language,
          ...(request.body.tafTsi ? { tafTsi: request.body.tafTsi } : {}),
          ...(request.body.subVehicles ? { subVehicles: request.body.subVehicles } : {}),
          origin: `${request.protocol}://${request.host}`,
        });
        return rows.map(toAsset);
      },
    );
  };
