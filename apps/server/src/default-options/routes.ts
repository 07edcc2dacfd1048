import {
  type DefaultOption,
  type DefaultOptionSummary,
  type Language,
  defaultOptionSchema,
  defaultOptionSummarySchema,
  defaultOptionValueRequestSchema,
  defaultOptionValueSchema,
  defaultOptionsQuerySchema,
  errorBodySchema,
  idParamSchema,
} from '@vers/domain';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db, Executor } from '../db/client.ts';
import { lockSubject } from '../db/locks.ts';
import { audit } from '../audit/audit.ts';
import { defaultOptionValues, defaultOptions } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { noContent } from '../http/openapi.ts';

type ListRow = typeof defaultOptions.$inferSelect;
type ValueRow = typeof defaultOptionValues.$inferSelect;

const toValue = (row: ValueRow) => ({ id: row.id, value: row.value, text: row.text, global: row.global });

function toSummary(row: ListRow, amount: number): DefaultOptionSummary {
  return {
    id: row.id,
    key: row.key,
    lang: row.lang as Language,
    name: row.name,
    text: row.text,
    superstructureType: row.superstructureType,
    lastModified: row.lastModified.toISOString(),
    amount,
  };
}

async function withValues(ex: Executor, lists: ListRow[]): Promise<DefaultOption[]> {
  if (lists.length === 0) return [];
  const values = await ex
    .select()
    .from(defaultOptionValues)
    .where(
      inArray(
        defaultOptionValues.optionId,
        lists.map((l) => l.id),
      ),
    )
    .orderBy(asc(defaultOptionValues.text));
  const byList = new Map<number, ValueRow[]>();
  for (const value of values) byList.set(value.optionId, [...(byList.get(value.optionId) ?? []), value]);
  return lists.map((list) => {
    const own = byList.get(list.id) ?? [];
    return { ...toSummary(list, own.length), values: own.map(toValue) };
  });
}

const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const listParams = z.object({ id: idParamSchema });
const valueParams = listParams.extend({ valueId: idParamSchema });

/**
 * Value lists (docs/requirements/administration.md#value-list-calls): every signed-in user reads them; only system
 * admins change them.
 */
export const defaultOptionRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    async function list(ex: Executor, id: number): Promise<ListRow> {
      const [row] = await ex.select().from(defaultOptions).where(eq(defaultOptions.id, id));
      if (!row) throw notFound('Value list');
      return row;
    }

    async function refuseDuplicateValue(ex: Executor, optionId: number, value: string, exceptId?: number) {
      const [clash] = await ex
        .select({ id: defaultOptionValues.id })
        .from(defaultOptionValues)
        .where(
          and(
            eq(defaultOptionValues.optionId, optionId),
            eq(defaultOptionValues.value, value),
            exceptId === undefined ? undefined : ne(defaultOptionValues.id, exceptId),
          ),
        );
      if (clash) throw new ApiError(409, 'CONFLICT', `The key ${value} is already in this list`);
    }

    /** How the audit trail names a list: its key and language. */
    const listName = (row: ListRow) => `${row.key} (${row.lang})`;

    /** Every change to a value marks its list changed, so incremental loads (`after`) pick the list up. */
    const touch = (ex: Executor, id: number) =>
      ex.update(defaultOptions).set({ lastModified: new Date() }).where(eq(defaultOptions.id, id));

    app.get(
      '/default-options-with-values',
      {
        schema: {
          tags: ['value lists'],
          summary: 'List the value lists with their values',
          querystring: defaultOptionsQuerySchema,
          response: { 200: z.array(defaultOptionSchema), ...errors },
        },
      },
      async (request) => {
        const { lang, after } = request.query;
        const lists = await db
          .select()
          .from(defaultOptions)
          .where(
            and(
              eq(defaultOptions.lang, lang),
              // Compared at the millisecond precision the client got (PostgreSQL keeps microseconds).
              after ? sql`date_trunc('milliseconds', ${defaultOptions.lastModified}) > ${new Date(after)}` : undefined,
            ),
          )
          .orderBy(asc(defaultOptions.key));
        return withValues(db, lists);
      },
    );

    app.get(
      '/default-options',
      {
        schema: {
          tags: ['value lists'],
          summary: 'List the value lists',
          querystring: z.object({ lang: defaultOptionsQuerySchema.shape.lang }),
          response: { 200: z.array(defaultOptionSummarySchema), ...errors },
        },
      },
      async (request) => {
        const rows = await db
          .select({ list: defaultOptions, amount: count(defaultOptionValues.id) })
          .from(defaultOptions)
          .leftJoin(defaultOptionValues, eq(defaultOptionValues.optionId, defaultOptions.id))
          .where(eq(defaultOptions.lang, request.query.lang))
          .groupBy(defaultOptions.id)
          .orderBy(asc(defaultOptions.key));
        return rows.map((r) => toSummary(r.list, r.amount));
      },
    );

    app.get(
      '/default-options/:id',
      {
        schema: {
          tags: ['value lists'],
          summary: 'Get a value list',
          params: listParams,
          response: { 200: defaultOptionSchema, ...errors },
        },
      },
      async (request) => {
        const [option] = await withValues(db, [await list(db, request.params.id)]);
        if (!option) throw notFound('Value list');
        return option;
      },
    );

    app.post(
      '/default-options/:id',
      {
        schema: {
          tags: ['value lists'],
          summary: 'Add a value to a value list',
          params: listParams,
          body: defaultOptionValueRequestSchema,
          response: { 200: z.object({ id: z.number().int() }), ...errors },
        },
      },
      async (request) =>
        db.transaction(async (tx) => {
          const option = await list(tx, request.params.id);
          await refuseDuplicateValue(tx, option.id, request.body.value);
          const [row] = await tx
            .insert(defaultOptionValues)
            .values({ optionId: option.id, ...request.body })
            .returning();
          if (!row) throw new ApiError(500, 'INTERNAL', 'value not saved');
          await touch(tx, option.id);
          await audit(tx, request, {
            action: 'valueList.valueAdded',
            workshopId: null,
            target: listName(option),
            details: { ...request.body },
          });
          return { id: row.id };
        }),
    );

    app.put(
      '/default-options/:id/:valueId',
      {
        schema: {
          tags: ['value lists'],
          summary: 'Update a value of a value list',
          params: valueParams,
          body: defaultOptionValueRequestSchema.extend({ id: z.number().int().optional() }),
          response: { 200: defaultOptionValueSchema, ...errors },
        },
      },
      async (request) =>
        db.transaction(async (tx) => {
          const { id, valueId } = request.params;
          await refuseDuplicateValue(tx, id, request.body.value, valueId);
          const [row] = await tx
            .update(defaultOptionValues)
            .set({ value: request.body.value, text: request.body.text, global: request.body.global })
            .where(and(eq(defaultOptionValues.id, valueId), eq(defaultOptionValues.optionId, id)))
            .returning();
          if (!row) throw notFound('Value');
          await touch(tx, id);
          await audit(tx, request, {
            action: 'valueList.valueChanged',
            workshopId: null,
            target: listName(await list(tx, id)),
            details: { value: row.value, text: row.text, global: row.global },
          });
          return toValue(row);
        }),
    );

    app.delete(
      '/default-options/:id/:valueId',
      {
        schema: {
          tags: ['value lists'],
          summary: 'Delete a value of a value list',
          params: valueParams,
          response: { 204: noContent, ...errors },
        },
      },
      async (request, reply) => {
        const { id, valueId } = request.params;
        await db.transaction(async (tx) => {
          // Two simultaneous deletes of a list's last two values: the second waits, counts again and is refused.
          await lockSubject(tx, `value-list:${id}`);
          const [existing] = await tx
            .select({ n: count() })
            .from(defaultOptionValues)
            .where(eq(defaultOptionValues.optionId, id));
          const [row] = await tx
            .select({ id: defaultOptionValues.id, value: defaultOptionValues.value })
            .from(defaultOptionValues)
            .where(and(eq(defaultOptionValues.id, valueId), eq(defaultOptionValues.optionId, id)));
          if (!row) throw notFound('Value');
          if ((existing?.n ?? 0) <= 1) throw new ApiError(409, 'LAST_VALUE', 'A value list keeps at least one value');
          await tx.delete(defaultOptionValues).where(eq(defaultOptionValues.id, valueId));
          await touch(tx, id);
          await audit(tx, request, {
            action: 'valueList.valueDeleted',
            workshopId: null,
            target: listName(await list(tx, id)),
            details: { value: row.value },
          });
        });
        return reply.status(204).send();
      },
    );
  };
