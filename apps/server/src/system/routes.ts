import { togglesResponseSchema, versionResponseSchema } from '@vers/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/client.ts';
import { featureToggles } from '../db/schema.ts';

export const systemRoutes =
  (db: Db, gitSha: string): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/version/current',
      { schema: { tags: ['system'], summary: 'Get the server version', response: { 200: versionResponseSchema } } },
      async () => ({ gitSha }),
    );

    app.get(
      '/toggles',
      { schema: { tags: ['system'], summary: 'List the feature toggles', response: { 200: togglesResponseSchema } } },
      async () => {
        const rows = await db.select().from(featureToggles);
        return Object.fromEntries(rows.map((row) => [row.name, row.enabled]));
      },
    );
  };
