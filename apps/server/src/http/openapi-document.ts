import { buildApp } from '../app.ts';
import { createTokenService } from '../auth/tokens.ts';
import { openDatabase } from '../db/client.ts';

/**
 * The OpenAPI document the server serves at /api/docs/json, built from an app on an empty in-memory database
 * (nothing listens), for the linter (scripts/lint-openapi.ts).
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const database = await openDatabase({ pgliteDir: null });
  const app = await buildApp({
    db: database.db,
    executeSql: database.executeSql,
    tokens: createTokenService('openapi-document-secret-that-signs-nothing', 1),
    gitSha: 'openapi0',
    logLevel: 'silent',
  });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await database.close();
  }
}
