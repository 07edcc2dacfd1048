import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_FOLDER, SERVER_DIST } from '../paths.ts';

/**
 * A PGlite data folder made once at build time with every migration applied (`npm run build`), as a gzipped tar. A
 * server starting on an empty data folder unpacks it instead of running initdb in WebAssembly and every migration
 * (about 3.6 s of CPU, the better part of a first start). It is used only when it was built from the migrations this
 * code has (the journal's last tag), so a stale template never stands in for a migration.
 */
export const TEMPLATE_FILE = path.join(SERVER_DIST, 'pglite-template.tar.gz');
export const TEMPLATE_TAG_FILE = `${TEMPLATE_FILE}.tag`;
const JOURNAL = path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json');

/** The tag of the newest migration, which a template must have been built with. */
export function latestMigrationTag(): string {
  const journal = JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.at(-1)?.tag ?? '';
}

/** The template for a new data folder `dir`, or null: the folder holds a database already, or no fitting template. */
export function templateFor(dir: string): Blob | null {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return null;
  if (!existsSync(TEMPLATE_FILE) || !existsSync(TEMPLATE_TAG_FILE)) return null;
  if (readFileSync(TEMPLATE_TAG_FILE, 'utf8').trim() !== latestMigrationTag()) return null;
  return new Blob([readFileSync(TEMPLATE_FILE)]);
}
