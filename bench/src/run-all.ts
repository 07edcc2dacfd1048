// `npm run bench`: prints the figures; budgets are reported, never asserted.
import { startProduct } from '../../e2e/support/server.ts';
import { measureActivityThroughput, printActivityThroughput } from './activity-throughput.ts';
import { measureBrowserOrders, printBrowserOrders } from './browser-orders.ts';
import { measureCatalogueRender, printCatalogueRender } from './catalogue-render.ts';
import { readBudgets } from './budgets.ts';
import { bundleSection, measureBundles } from './bundle-size.ts';
import { printSection } from './figures.ts';
import { measureDocuments, printDocuments } from './documents.ts';
import { measureFleet, printFleet } from './fleet.ts';
import { measureFold, printFold } from './fold.ts';
import { measureImages, printImages } from './images.ts';
import { measureOfflineCatchUp, printOfflineCatchUp } from './offline-catch-up.ts';
import { measureStartup } from './startup.ts';

const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

const product = await startProduct();
try {
  printSection(bundleSection(await measureBundles(product.url), readBudgets()));
  printBrowserOrders(await measureBrowserOrders(product));
  printOfflineCatchUp(await measureOfflineCatchUp(product));
  printImages(await measureImages(product));
} finally {
  await product.stop();
}
printFleet(await measureFleet());
const startup = await measureStartup();
console.log(
  `server start to first answer, empty data folder: ${startup.versMs.toFixed(0)} ms ` +
    `(bare Node HTTP server: ${startup.baselineMs.toFixed(0)} ms, ratio ${(startup.versMs / startup.baselineMs).toFixed(1)}x; median of ${startup.runs})`,
);
printDocuments(await measureDocuments());
printFold(measureFold());
printCatalogueRender(measureCatalogueRender());
printActivityThroughput('PGlite', await measureActivityThroughput());
try {
  printActivityThroughput('PostgreSQL', await measureActivityThroughput({ databaseUrl: POSTGRES_URL }));
} catch (error) {
  console.log(`activity push on PostgreSQL (${POSTGRES_URL}): not measured, ${String(error)}`);
}
