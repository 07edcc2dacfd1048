// `npm run build -w @vers/server`: a migrated, empty PGlite data folder as a tarball (src/db/pglite-template.ts),
// which a first start on an empty data folder unpacks instead of running initdb and the migrations.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { TEMPLATE_FILE, TEMPLATE_TAG_FILE, latestMigrationTag } from '../src/db/pglite-template.ts';
import * as schema from '../src/db/schema.ts';
import { MIGRATIONS_FOLDER } from '../src/paths.ts';

const started = performance.now();
const client = new PGlite();
await migrate(drizzle({ client, schema }), {
  migrationsFolder: MIGRATIONS_FOLDER,
});
const tarball = await client.dumpDataDir('gzip');
await client.close();
mkdirSync(path.dirname(TEMPLATE_FILE), { recursive: true });
writeFileSync(TEMPLATE_FILE, Buffer.from(await tarball.arrayBuffer()));
writeFileSync(TEMPLATE_TAG_FILE, `${latestMigrationTag()}\n`);
console.log(
  `PGlite template: ${path.relative(process.cwd(), TEMPLATE_FILE)} (${Math.round(tarball.size / 1024)} KB, ` +
    `migrations up to ${latestMigrationTag()}) in ${Math.round(performance.now() - started)} ms`,
);
