import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createTestDatabase, startTestServer, type TestServer } from './server.ts';

const run = promisify(execFile);

/**
 * The real server on a database that can be backed up and restored as an operator would: PGlite by copying its data
 * folder while the server is stopped, PostgreSQL (TEST_DATABASE_URL) with pg_dump and pg_restore into a database
 * made anew. Each start listens on a new port; `server` is the one running now.
 */
export interface RestorableServer {
  readonly server: TestServer;
  readonly kind: 'pglite' | 'postgres';
  /** Takes a backup (PGlite: stops the server, copies the folder, starts it again). */
  backup(): Promise<void>;
  /** Stops the server, puts the last backup in place of the database, and starts the server on it. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** `postgresUrl`: the PostgreSQL server to make the database on; TEST_DATABASE_URL when absent, else PGlite. */
export async function startRestorableServer(
  postgresUrl: string | undefined = process.env.TEST_DATABASE_URL,
): Promise<RestorableServer> {
  const created = await createTestDatabase(postgresUrl);
  const work = mkdtempSync(path.join(tmpdir(), 'vers-restore-'));
  const folder = path.join(work, 'pglite');
  const copy = path.join(work, 'pglite-backup');
  const dump = path.join(work, 'backup.dump');
  const target = created ? { url: created.url } : { pgliteDir: folder };
  let server = await startTestServer({ target });

  /** The database named by the URL, dropped (ending every connection) and made anew, empty. */
  async function recreate(url: string) {
    const name = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  }

  return {
    get server() {
      return server;
    },
    kind: created ? 'postgres' : 'pglite',
    async backup() {
      if (created) {
        await run('pg_dump', ['--format=custom', `--file=${dump}`, created.url]);
        return;
      }
      await server.close();
      rmSync(copy, { recursive: true, force: true });
      cpSync(folder, copy, { recursive: true });
      server = await startTestServer({ target });
    },
    async restore() {
      await server.close();
      if (created) {
        await recreate(created.url);
        await run('pg_restore', ['--no-owner', `--dbname=${created.url}`, dump]);
      } else {
        rmSync(folder, { recursive: true, force: true });
        cpSync(copy, folder, { recursive: true });
      }
      server = await startTestServer({ target });
    },
    async close() {
      await server.close();
      await created?.drop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
