// `npm run bench`: runs every benchmark, prints its figures and writes bench/report.md (and bench/report.json),
// comparing each figure with the previous report committed in the repository. Figures are reported, never
// asserted (the size budgets are asserted by `npm run check:budgets`, in `npm test`).
// `npm run bench -- --only lighthouse,bundles` runs only the named steps and prints them, writing no report.
// First: the browser globals the app's modules read when imported (restore-heal and catalogue-render load app code:
// IndexedDB for Dexie, local storage and a window for the session), the window taken away again below, once
// imported, so that PGlite does not take this process for a browser.
import 'fake-indexeddb/auto';
import { removeWindowStub } from '../../apps/web/src/offline/test-node-globals.ts';
import { type RunningProduct, startProduct } from '../../e2e/support/server.ts';
import { activityThroughputSection, measureActivityThroughput } from './activity-throughput.ts';
import { browserOrdersSection, measureBrowserOrders } from './browser-orders.ts';
import { readBudgets } from './budgets.ts';
import { bundleSection, measureBundles } from './bundle-size.ts';
import { catalogueRenderSection, measureCatalogueRender } from './catalogue-render.ts';
import { documentsSections, measureDocuments } from './documents.ts';
import { type Section, printSection } from './figures.ts';
import { fleetSection, measureFleet } from './fleet.ts';
import { foldSection, measureFold } from './fold.ts';
import { imagesSection, measureImages } from './images.ts';
import { lighthouseSections, measureLighthouse } from './lighthouse.ts';
import { measureMemory, memorySection } from './memory.ts';
import { measureOfflineCatchUp, offlineCatchUpSection } from './offline-catch-up.ts';
import { measureOrderList, orderListSection } from './order-list.ts';
import { watchMachine, writeReport } from './report.ts';
import { measurePictureStore, pictureStoreSection } from './picture-store.ts';
import { measureRestoreHeal, restoreHealSection } from './restore-heal.ts';
import { measureScan, scanSection } from './scan.ts';
import { measureStartup, startupSection } from './startup.ts';

removeWindowStub();

const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

const onlyArgument = process.argv.indexOf('--only');
const only = onlyArgument >= 0 ? new Set((process.argv[onlyArgument + 1] ?? '').split(',')) : null;
const wanted = (name: string) => !only || only.has(name);

const machine = watchMachine();
const sections: Section[] = [];
const report = (...measured: Section[]) => {
  for (const section of measured) {
    printSection(section);
    sections.push(section);
  }
};
/**
 * Runs one benchmark (when wanted) and reports its sections; one that fails is reported as not measured, with the
 * reason, and the others still run: on a busy machine a server start can time out.
 */
async function step(name: string, title: string, measure: () => Promise<Section | Section[]> | Section) {
  if (!wanted(name)) return;
  try {
    report(...[await measure()].flat());
  } catch (error) {
    report({ id: name, title, figures: [], notes: [`not measured: ${String(error)}`] });
  }
}

const product: RunningProduct | Error = await startProduct().catch((error: unknown) =>
  error instanceof Error ? error : new Error(String(error)),
);
try {
  const started = () => {
    if (product instanceof Error) throw new Error(`the product did not start: ${product.message}`);
    return product;
  };
  await step('bundles', 'web app JavaScript, KB gzip (level 9)', async () =>
    bundleSection(await measureBundles(started().url), readBudgets()),
  );
  await step('browser-orders', 'orders in Chromium', async () =>
    browserOrdersSection(await measureBrowserOrders(started())),
  );
  await step('offline-catch-up', 'offline catch-up', async () =>
    offlineCatchUpSection(await measureOfflineCatchUp(started())),
  );
  await step('images', 'pictures', async () => imagesSection(await measureImages(started())));
  await step('memory', 'browser memory', async () => memorySection(await measureMemory(started())));
  await step('scan', 'scanning the number', async () => scanSection(await measureScan(started())));
  // After the benchmarks above, so that the order list has orders in it.
  await step('lighthouse', 'Lighthouse', async () => lighthouseSections(await measureLighthouse(started())));
} finally {
  if (!(product instanceof Error)) await product.stop();
}
await step('order-list', 'order list at 200 / 2,000 / 20,000 orders', async () =>
  orderListSection(await measureOrderList()),
);
await step('fleet', 'fleet', async () => fleetSection(await measureFleet()));
await step('fleet-postgres', `fleet on PostgreSQL (${POSTGRES_URL})`, async () =>
  fleetSection(await measureFleet({ databaseUrl: POSTGRES_URL })),
);
await step('startup', 'server start', async () => startupSection(await measureStartup()));
await step('documents', 'PDF documents', async () => documentsSections(await measureDocuments()));
await step('picture-store', 'one 1 MB picture in the database (PGlite)', async () =>
  pictureStoreSection(await measurePictureStore()),
);
await step('fold', 'fold', () => foldSection(measureFold()));
await step('catalogue-render', 'field catalogue and the editor', () =>
  catalogueRenderSection(measureCatalogueRender()),
);
await step('restore-heal-pglite', 'healing a restored server (PGlite)', async () =>
  restoreHealSection(await measureRestoreHeal()),
);
await step('restore-heal-postgres', 'healing a restored server (PostgreSQL)', async () =>
  restoreHealSection(await measureRestoreHeal(POSTGRES_URL)),
);
await step('activity-push-pglite', 'activity push on PGlite', async () =>
  activityThroughputSection('PGlite', await measureActivityThroughput()),
);
await step('activity-push-postgres', `activity push on PostgreSQL (${POSTGRES_URL})`, async () =>
  activityThroughputSection('PostgreSQL', await measureActivityThroughput({ databaseUrl: POSTGRES_URL })),
);

if (only) {
  console.log('(--only: no report written)');
} else {
  const file = await writeReport({ machine: machine.finish(), sections });
  console.log(`report: ${file}`);
}
