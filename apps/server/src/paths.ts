import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Where the server's own files are. The server runs from its source (src/*.ts, through tsx or vitest) and as the
 * bundle `npm run build` makes (dist/main.js and its chunks, scripts/build-server.ts). This module lies one folder
 * below the package root in both: src/paths.ts, or inlined into a file of dist/. So the package root is one step up
 * from here, and every other path is named from it, never from the file that uses it (which is no file of its own in
 * the bundle).
 */

/** apps/server/ */
export const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));

if (!existsSync(join(SERVER_ROOT, 'drizzle'))) {
  throw new Error(`${SERVER_ROOT} is not the server's folder: the bundle must lie directly in apps/server/dist/`);
}

/** The database migrations (drizzle-kit). */
export const MIGRATIONS_FOLDER = join(SERVER_ROOT, 'drizzle');
/** What `npm run build -w @vers/server` makes: the bundle and the PGlite template. */
export const SERVER_DIST = join(SERVER_ROOT, 'dist');
/** The built web app, served when it exists (VERS_WEB_DIST overrides it). */
export const DEFAULT_WEB_DIST = join(SERVER_ROOT, '..', 'web', 'dist');
/** The PDF documents' own texts, one JSON file per language. */
export const DOCUMENT_LOCALES = join(SERVER_ROOT, 'src', 'documents', 'locales');
/** The web app's catalogue texts (field, tab and unit labels), which the PDF documents share with the editor. */
export const CATALOGUE_LOCALES = join(SERVER_ROOT, '..', 'web', 'src', 'features', 'catalogue', 'locales');
/** The server's package.json, to resolve its dependencies' files (fonts) from. */
export const SERVER_PACKAGE_JSON = join(SERVER_ROOT, 'package.json');
