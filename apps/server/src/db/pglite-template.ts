import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_FOLDER, SERVER_DIST } from '../paths.ts';

/**
 * A PGlite data folder made once at build time with every migration applied (`npm run build`). A server starting on
 * an empty data folder copies it instead of running initdb in WebAssembly and every migration (about 3.6 s of CPU,
 * the better part of a first start). It is kept as a folder, not a tarball for PGlite's `loadDataDir`: PGlite wrote
 * each of its ~1,100 files through its emulated file system, ~1 s of CPU, where the kernel copies them in a few ms.
 * It is used only when it was built from the migrations this code has (the journal's last tag), so a stale template
 * never stands in for a migration.
 */
export const TEMPLATE_DIR = path.join(SERVER_DIST, 'pglite-template');
export const TEMPLATE_TAG_FILE = `${TEMPLATE_DIR}.tag`;
const JOURNAL = path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json');

/** The tag of the newest migration, which a template must have been built with. */
export function latestMigrationTag(): string {
  const journal = JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.at(-1)?.tag ?? '';
}

/**
 * A file in a data folder copied from the template until the database has its own identity: every copy starts with
 * the identity the build gave the template, and a start stopped between the copy and the new identity must not leave
 * a database that shares it (docs/requirements/sync.md#data-flow-restored-server).
 */
const IDENTITY_PENDING = 'vers-identity-pending';

/**
 * Fills the PGlite data folder `dir` from the template when `dir` holds no database yet and a fitting template
 * exists. The copy is made beside `dir` and renamed into place, so a start stopped half-way leaves no half a database
 * that a next start would take for one. Answers whether the database in `dir` still needs an identity of its own
 * (a copy just made, or one whose start stopped before `identityGiven`).
 */
export function copyTemplateTo(dir: string, template = TEMPLATE_DIR): boolean {
  const pending = path.join(dir, IDENTITY_PENDING);
  const tagFile = `${template}.tag`;
  if (existsSync(path.join(dir, 'PG_VERSION'))) return existsSync(pending);
  if (!existsSync(path.join(template, 'PG_VERSION')) || !existsSync(tagFile)) return false;
  if (readFileSync(tagFile, 'utf8').trim() !== latestMigrationTag()) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    // Files of something else in the folder: copied among them, as PGlite's loadDataDir did.
    cpSync(template, dir, { recursive: true });
    writeFileSync(pending, '');
    return true;
  }
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(template, partial, { recursive: true });
  writeFileSync(path.join(partial, IDENTITY_PENDING), '');
  rmSync(dir, { recursive: true, force: true }); // an empty folder, if any
  renameSync(partial, dir);
  return true;
}

/** Called once the database in `dir`, copied from the template, has its own identity. */
export function identityGiven(dir: string): void {
  rmSync(path.join(dir, IDENTITY_PENDING), { force: true });
}
