// `npm run bench`: runs every benchmark, prints its figures and writes bench/report.md (and bench/report.json),
// comparing each figure with the previous report committed in the repository. Figures are reported, never
// asserted (the size budgets are asserted by `npm run check:budgets`, in `npm test`).
// `npm run bench -- --only lighthouse,bundles` runs only the named sections and prints them, writing no report.
import { startProduct } from '../../e2e/support/server.ts';
import { activityThroughputSection, measureActivityThroughput } from './activity-throughput.ts';
import { browserOrdersSection, measureBrowserOrders } from './browser-orders.ts';
import { readBudgets } from './budgets.ts';
import { bundleSection, measureBundles } from './bundle-size.ts';
import { catalogueRenderSection, measureCatalogueRender } from './catalogue-render.ts';
import { documentsSection, measureDocuments } from './documents.ts';
import { type Section, printSection } from './figures.ts';
import { fleetSection, measureFleet } from './fleet.ts';
import { foldSection, measureFold } from './fold.ts';
import { imagesSection, measureImages } from './images.ts';
import { lighthouseSections, measureLighthouse } from './lighthouse.ts';
import { measureOfflineCatchUp, offlineCatchUpSection } from './offline-catch-up.ts';
import { watchMachine, writeReport } from './report.ts';
import { measureStartup, startupSection } from './startup.ts';

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
/** A benchmark that could not run is reported as such, with the reason, and the others still run. */
const notMeasured = (id: string, title: string, error: unknown): Section => ({
  id,
  title,
  figures: [],
  notes: [`not measured: ${String(error)}`],
});

const product = await startProduct();
try {
  if (wanted('bundles')) report(bundleSection(await measureBundles(product.url), readBudgets()));
  if (wanted('browser-orders')) report(browserOrdersSection(await measureBrowserOrders(product)));
  if (wanted('offline-catch-up')) report(offlineCatchUpSection(await measureOfflineCatchUp(product)));
  if (wanted('images')) report(imagesSection(await measureImages(product)));
  // After the benchmarks above, so that the order list has orders in it.
  if (wanted('lighthouse')) {
    try {
      report(...lighthouseSections(await measureLighthouse(product)));
    } catch (error) {
      report(notMeasured('lighthouse-scores', 'Lighthouse scores (0-100)', error));
    }
  }
} finally {
  await product.stop();
}
if (wanted('fleet')) report(fleetSection(await measureFleet()));
if (wanted('startup')) report(startupSection(await measureStartup()));
if (wanted('documents')) report(documentsSection(await measureDocuments()));
if (wanted('fold')) report(foldSection(measureFold()));
if (wanted('catalogue-render')) report(catalogueRenderSection(measureCatalogueRender()));
if (wanted('activity-push')) {
  report(activityThroughputSection('PGlite', await measureActivityThroughput()));
  try {
    report(activityThroughputSection('PostgreSQL', await measureActivityThroughput({ databaseUrl: POSTGRES_URL })));
  } catch (error) {
    report(notMeasured('activity-push-postgres', `activity push on PostgreSQL (${POSTGRES_URL})`, error));
  }
}

if (only) {
  console.log('(--only: no report written)');
} else {
  const file = writeReport({ machine: machine.finish(), sections });
  console.log(`report: ${file}`);
}
