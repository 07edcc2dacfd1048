import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_FOLDER as migrationsFolder } from '../paths.ts';
import { copyTemplateTo, identityGiven } from './pglite-template.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Plain SQL for libraries that bring their own queries (the job queue). */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  db: Db;
  executeSql: ExecuteSql;
  /** `pglite` (embedded, in a folder or in memory) or `postgres` (a server). */
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** Any constant: several instances starting at once on one PostgreSQL take turns migrating. */
const MIGRATION_LOCK = 4_271_001;

export type DatabaseTarget = { url: string } | { pgliteDir: string | null };

/** Opens the database and brings its schema up to date. `pgliteDir: null` keeps PGlite in memory. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if ('url' in target) {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection the server ends (a restart, a dropped test database) must not crash the process: the
    // pool replaces it on the next query. Without a listener pg rethrows it as an uncaught exception.
    pool.on('error', (error) => console.warn('database connection lost:', error.message));
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    } finally {
      client.release();
    }
    return {
      db: drizzlePg({ client: pool, schema }),
      executeSql: async (text, values) => ({ rows: (await pool.query(text, values)).rows }),
      kind: 'postgres',
      close: () => pool.end(),
    };
  }
  const fromTemplate = target.pgliteDir !== null && copyTemplateTo(target.pgliteDir);
  // pg_trgm: the order search's trigram indexes (migration 0012); PostgreSQL servers have it among their contrib modules.
  const extensions = { pg_trgm };
  // PostgreSQL's 128 MB buffer cache stays, though PGlite zeroes it at every start (docs/decisions.md).
  const client = target.pgliteDir === null ? new PGlite({ extensions }) : new PGlite(target.pgliteDir, { extensions });
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder });
  // Every database made from the template would otherwise share the identity the build made
  // (docs/requirements/sync.md#data-flow-restored-server): a new folder gets its own.
  if (fromTemplate && target.pgliteDir !== null) {
    await client.exec('UPDATE server_identity SET id = gen_random_uuid()');
    identityGiven(target.pgliteDir);
  }
  const executeSql: ExecuteSql = async (text, values) => {
    // Without parameters the text may hold several statements (the job queue's migrations): only exec runs those.
    if (!values || values.length === 0) return { rows: (await client.exec(text)).at(-1)?.rows ?? [] };
    return { rows: (await client.query(text, values)).rows };
  };
  return { db, executeSql, kind: 'pglite', close: () => client.close() };
}

/** A transaction handed to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Where a query can run: the database or an open transaction. */
export type Executor = Db | Tx;
