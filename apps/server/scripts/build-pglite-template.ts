// `npm run build -w @vers/server`: a migrated, empty PGlite data folder (src/db/pglite-template.ts), which a first
// start on an empty data folder copies instead of running initdb and the migrations.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/db/client.ts';
import { TEMPLATE_DIR, TEMPLATE_TAG_FILE, latestMigrationTag } from '../src/db/pglite-template.ts';
import { QUEUES, startJobQueue } from '../src/jobs/queue.ts';

const started = performance.now();
const building = `${TEMPLATE_DIR}.building`;
rmSync(building, { recursive: true, force: true });
mkdirSync(path.dirname(TEMPLATE_DIR), { recursive: true });
// No tag while the folder changes: a server starting meanwhile initialises on its own instead.
rmSync(TEMPLATE_TAG_FILE, { force: true });
// The migrations, and the job queue's tables and queues (pg-boss makes them at its first start).
const database = await openDatabase({ pgliteDir: building });
const idle = async () => {};
const jobs = await startJobQueue(database.executeSql, {
  [QUEUES.importValidation]: idle,
  [QUEUES.documentGeneration]: idle,
  [QUEUES.mailDelivery]: idle,
  [QUEUES.mailDigest]: idle,
});
await jobs.stop();
// template0 and template1 serve CREATE DATABASE only, which VERS never runs on PGlite (it works in `postgres`). A first
// start copies every file of this folder, and the kernel's cost here is per file (~0.6 ms each): without their ~600
// files the copy took 0.16 s of CPU instead of 0.65 (issue 19, server start on an empty data folder). Dropped the
// database's way, so the catalogue and the folders agree.
for (const name of ['template0', 'template1']) {
  await database.executeSql(`ALTER DATABASE ${name} IS_TEMPLATE false`);
  await database.executeSql(`DROP DATABASE ${name}`);
}
await database.close(); // a clean shutdown: the folder opens without recovery
rmSync(TEMPLATE_DIR, { recursive: true, force: true });
renameSync(building, TEMPLATE_DIR);
// The tarball of earlier builds (PGlite's loadDataDir) is no longer read.
rmSync(path.join(path.dirname(TEMPLATE_DIR), 'pglite-template.tar.gz'), { force: true });
rmSync(path.join(path.dirname(TEMPLATE_DIR), 'pglite-template.tar.gz.tag'), { force: true });
writeFileSync(TEMPLATE_TAG_FILE, `${latestMigrationTag()}\n`);
console.log(
  `PGlite template: ${path.relative(process.cwd(), TEMPLATE_DIR)}/ (migrations up to ${latestMigrationTag()}) in ` +
    `${Math.round(performance.now() - started)} ms`,
);
