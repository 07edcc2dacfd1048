import {
  type Keeper,
  errorBodySchema,
  idParamSchema,
  keeperListSchema,
  keeperRequestSchema,
  keeperSchema,
} from '@vers/domain';
import { and, count, eq, inArray, ne, notInArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, changes } from '../audit/audit.ts';
import type { Db, Executor } from '../db/client.ts';
import { keeperMarkings, keepers, users } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { noContent } from '../http/openapi.ts';
import { readKeepers } from './records.ts';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idParams = z.object({ id: idParamSchema });

const markingTaken = (vkms: readonly string[]) =>
  new ApiError(
    409,
    'KEEPER_MARKING_TAKEN',
    `Marking already belongs to another keeper: ${vkms.join(', ')}`,
    vkms.map((vkm) => `markings.${vkm}`),
  );

/** The VKMs of `vkms` that belong to a keeper other than `keeperId`. */
async function takenByOthers(ex: Executor, vkms: readonly string[], keeperId: number | null): Promise<string[]> {
  if (vkms.length === 0) return [];
  const rows = await ex
    .select({ vkm: keeperMarkings.vkm })
    .from(keeperMarkings)
    .where(
      and(
        inArray(keeperMarkings.vkm, [...vkms]),
        keeperId === null ? undefined : ne(keeperMarkings.keeperId, keeperId),
      ),
    );
  return rows.map((row) => row.vkm).sort();
}

/** The database refused a VKM another keeper took meanwhile (the primary key of keeper_markings). */
function isMarkingClash(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const { code, constraint } = e as Error & { code?: unknown; constraint?: unknown };
    if (code === '23505') return constraint === 'keeper_markings_pkey';
  }
  return false;
}

/** The database refused deleting a keeper a user was linked to meanwhile (users' foreign key). */
function isKeeperInUse(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const { code, constraint } = e as Error & { code?: unknown; constraint?: unknown };
    if (code === '23503') return constraint === 'users_keeper_id_keepers_id_fk';
  }
  return false;
}

const keeperInUse = () => new ApiError(409, 'KEEPER_IN_USE', 'Users belong to this keeper');

/**
 * Keepers and their VKMs (issue 22), managed by the system admins. A VKM belongs to one keeper at most: the check
 * before writing names the clash, and two requests claiming the same VKM at once are decided by the primary key of
 * `keeper_markings` (the second gets the same 409). The holders' lists follow a keeper's markings at once: they are
 * read with every holder call.
 */
export const keeperRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    /** Runs a write of markings; a clash found only by the database answers as the check before it would. */
    async function writingMarkings<T>(vkms: readonly string[], keeperId: number | null, write: () => Promise<T>) {
      try {
        return await write();
      } catch (error) {
        if (!isMarkingClash(error)) throw error;
        const taken = await takenByOthers(db, vkms, keeperId);
        throw markingTaken(taken.length > 0 ? taken : vkms);
      }
    }

    async function keeperById(ex: Executor, id: number): Promise<Keeper> {
      const [keeper] = await readKeepers(ex, [id]);
      if (!keeper) throw notFound('Keeper');
      return keeper;
    }

    app.get(
      '/keepers',
      {
        schema: {
          tags: ['keepers'],
          summary: 'List the keepers',
          description: 'Every keeper with its VKMs and the number of holder users that belong to it.',
          response: { 200: keeperListSchema },
        },
      },
      async () => readKeepers(db),
    );

    app.post(
      '/keepers',
      {
        schema: {
          tags: ['keepers'],
          summary: 'Create a keeper',
          description:
            'A keeper with its VKMs (2 to 5 letters, e.g. GATX for the marking D-GATX). 409 KEEPER_MARKING_TAKEN ' +
            'with `fields` naming the VKMs that belong to another keeper.',
          body: keeperRequestSchema,
          response: { 201: keeperSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { name, markings } = request.body;
        const vkms = [...new Set(markings)];
        const keeper = await writingMarkings(vkms, null, () =>
          db.transaction(async (tx) => {
            const taken = await takenByOthers(tx, vkms, null);
            if (taken.length > 0) throw markingTaken(taken);
            const [row] = await tx.insert(keepers).values({ name }).returning();
            if (!row) throw new Error('keeper not created');
            await tx.insert(keeperMarkings).values(vkms.map((vkm) => ({ vkm, keeperId: row.id })));
            await audit(tx, request, {
              action: 'keeper.created',
              workshopId: null,
              target: name,
              details: { markings: [...vkms].sort() },
            });
            return keeperById(tx, row.id);
          }),
        );
        return reply.status(201).send(keeper);
      },
    );

    app.put(
      '/keepers/:id',
      {
        schema: {
          tags: ['keepers'],
          summary: 'Change a keeper',
          description:
            'Sets the name and the VKMs of a keeper; the orders its holders see follow at once. 409 ' +
            'KEEPER_MARKING_TAKEN as on creation.',
          params: idParams,
          body: keeperRequestSchema,
          response: { 200: keeperSchema, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { name, markings } = request.body;
        const vkms = [...new Set(markings)];
        return writingMarkings(vkms, id, () =>
          db.transaction(async (tx) => {
            const [locked] = await tx.select().from(keepers).where(eq(keepers.id, id)).for('update');
            if (!locked) throw notFound('Keeper');
            const before = await keeperById(tx, id);
            const taken = await takenByOthers(tx, vkms, id);
            if (taken.length > 0) throw markingTaken(taken);
            await tx.update(keepers).set({ name, lastModified: new Date() }).where(eq(keepers.id, id));
            await tx
              .delete(keeperMarkings)
              .where(and(eq(keeperMarkings.keeperId, id), notInArray(keeperMarkings.vkm, vkms)));
            const added = vkms.filter((vkm) => !before.markings.includes(vkm));
            if (added.length > 0) await tx.insert(keeperMarkings).values(added.map((vkm) => ({ vkm, keeperId: id })));
            const after = await keeperById(tx, id);
            await audit(tx, request, {
              action: 'keeper.changed',
              workshopId: null,
              target: before.name,
              details: changes(before, { name: after.name, markings: after.markings }),
            });
            return after;
          }),
        );
      },
    );

    app.delete(
      '/keepers/:id',
      {
        schema: {
          tags: ['keepers'],
          summary: 'Delete a keeper',
          description: 'Deletes a keeper and its VKMs; 409 KEEPER_IN_USE while users belong to it.',
          params: idParams,
          response: { 204: noContent, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await db
          .transaction(async (tx) => {
            const [row] = await tx.select().from(keepers).where(eq(keepers.id, id)).for('update');
            if (!row) throw notFound('Keeper');
            const [members] = await tx.select({ n: count() }).from(users).where(eq(users.keeperId, id));
            if ((members?.n ?? 0) > 0) throw keeperInUse();
            const before = await keeperById(tx, id);
            await tx.delete(keepers).where(eq(keepers.id, id));
            await audit(tx, request, {
              action: 'keeper.deleted',
              workshopId: null,
              target: row.name,
              details: { markings: before.markings },
            });
          })
          .catch((error: unknown) => {
            // A user linked to it meanwhile: the foreign key refuses the delete.
            throw isKeeperInUse(error) ? keeperInUse() : error;
          });
        return reply.status(204).send();
      },
    );
  };
