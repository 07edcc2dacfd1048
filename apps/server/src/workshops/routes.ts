import {
  WORKSHOP_ICON_MAX_BYTES,
  WORKSHOP_ICON_MAX_PIXELS,
  logoProblem,
  type Workshop,
  errorBodySchema,
  idParamSchema,
  updateWorkshopRequestSchema,
  workshopSchema,
  workshopSummarySchema,
} from '@vers/domain';
import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type WorkshopRow, sessionUser } from '../auth/session.ts';
import { reaches } from '../auth/tenancy.ts';
import type { Db } from '../db/client.ts';
import { workshops } from '../db/schema.ts';
import { audit, changes } from '../audit/audit.ts';
import { requirePng } from '../assets/png.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { TEXT_MEDIA_TYPE } from '../http/openapi.ts';

export function toWorkshop(row: WorkshopRow): Workshop {
  return {
    id: row.id,
    name: row.name,
    countryCode: row.countryCode,
    email: row.email,
    phone: row.phone,
    fax: row.fax,
    revNr: row.revNr,
    siteId: row.siteId,
    addLastModifier: row.addLastModifier,
    hasIcon: row.icon !== null,
  };
}

const params = z.object({ id: idParamSchema });
const errors = { 400: errorBodySchema, 404: errorBodySchema, 413: errorBodySchema };

/** Base64 as the spec sends it: no data-URL prefix, whitespace tolerated. */
const base64Body = z
  .string()
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'not base64'),
  );

/**
 * Workshop settings (docs/requirements/administration.md#workshop-calls). `workshops` is the documented root;
 * `workshop`, the other spelling in the spec's sources, answers the same calls and is left out of the OpenAPI document.
 */
export const workshopRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    // The system admins' list of all workshops, to pick one (the users page); others reach their own only.
    app.get(
      '/workshops',
      {
        schema: {
          tags: ['workshops'],
          summary: 'List all workshops (system admins)',
          response: { 200: z.array(workshopSummarySchema) },
        },
      },
      async () =>
        db
          .select({
            id: workshops.id,
            name: workshops.name,
            countryCode: workshops.countryCode,
            siteId: workshops.siteId,
          })
          .from(workshops)
          .orderBy(asc(workshops.name), asc(workshops.id)),
    );

    for (const root of ['workshops', 'workshop'] as const) {
      const hide = root === 'workshop';

      async function reachable(request: { params: { id: number } } & Parameters<typeof sessionUser>[0]) {
        const [row] = await db.select().from(workshops).where(eq(workshops.id, request.params.id));
        if (!row || !reaches(sessionUser(request), row.id)) throw notFound('Workshop');
        return row;
      }

      app.get(
        `/${root}/:id`,
        {
          schema: {
            hide,
            tags: ['workshops'],
            summary: "Get a workshop's settings",
            params,
            response: { 200: workshopSchema, ...errors },
          },
        },
        async (request) => toWorkshop(await reachable(request)),
      );

      app.put(
        `/${root}/:id`,
        {
          schema: {
            hide,
            tags: ['workshops'],
            summary: "Update a workshop's settings",
            params,
            body: updateWorkshopRequestSchema,
            response: { 200: workshopSchema, ...errors },
          },
        },
        async (request) => {
          const row = await reachable(request);
          // The change and its audit entry are written together or not at all.
          const updated = await db.transaction(async (tx) => {
            const [changed] = await tx
              .update(workshops)
              .set({ ...request.body, lastModified: new Date() })
              .where(eq(workshops.id, row.id))
              .returning();
            if (!changed) throw notFound('Workshop');
            await audit(tx, request, {
              action: 'workshop.changed',
              workshopId: row.id,
              target: changed.name,
              details: changes(row, request.body),
            });
            return changed;
          });
          return toWorkshop(updated);
        },
      );

      app.get(
        `/${root}/:id/icon`,
        {
          schema: {
            hide,
            tags: ['workshops'],
            summary: "Get a workshop's logo",
            description: 'The logo as base64 PNG (text/plain).',
            params,
            response: {
              200: { description: 'The PNG as base64', content: { [TEXT_MEDIA_TYPE]: { schema: z.string() } } },
              ...errors,
            },
          },
        },
        async (request, reply) => {
          const row = await reachable(request);
          if (row.icon === null) throw notFound('Logo');
          return reply.type(TEXT_MEDIA_TYPE).send(row.icon);
        },
      );

      app.put(
        `/${root}/:id/icon`,
        {
          schema: {
            hide,
            tags: ['workshops'],
            summary: "Set a workshop's logo",
            description: 'Sets the logo: the body is the base64 PNG as plain text, without a data-URL prefix.',
            params,
            consumes: [TEXT_MEDIA_TYPE],
            body: base64Body,
            response: { 200: workshopSchema, ...errors },
          },
        },
        async (request) => {
          const row = await reachable(request);
          const bytes = Buffer.from(request.body, 'base64');
          const problem = logoProblem(bytes);
          if (problem === 'tooLarge') {
            throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `The logo may have at most ${WORKSHOP_ICON_MAX_BYTES} bytes`);
          }
          if (problem === 'tooManyPixels') {
            const max = WORKSHOP_ICON_MAX_PIXELS;
            throw new ApiError(400, 'IMAGE_TOO_LARGE', `The logo may have at most ${max} x ${max} pixels`);
          }
          requirePng(bytes, 'The logo'); // the same rule as for pictures: the content decides, not a name
          const updated = await db.transaction(async (tx) => {
            const [changed] = await tx
              .update(workshops)
              .set({ icon: bytes.toString('base64'), lastModified: new Date() })
              .where(eq(workshops.id, row.id))
              .returning();
            if (!changed) throw notFound('Workshop');
            await audit(tx, request, {
              action: 'workshop.logoChanged',
              workshopId: row.id,
              target: changed.name,
              details: { bytes: bytes.length },
            });
            return changed;
          });
          return toWorkshop(updated);
        },
      );
    }
  };
