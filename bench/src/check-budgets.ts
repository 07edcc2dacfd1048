// `npm run check:budgets` (part of `npm test`, after the build): the login screen's JavaScript and each route's
// chunks against their gzip budgets in bench/budgets.json. Exits 1 when one is over or has no budget.
// `-- --write` sets every budget to today's size plus headroom instead (a deliberate raise, to be explained in
// the commit). Reads the build in VERS_WEB_DIST (default apps/web/dist).
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  BUDGETS_FILE,
  type BudgetVerdict,
  type MeasuredSize,
  RAISE_HINT,
  budgetsFromSizes,
  compareWithBudgets,
  readBudgets,
  writeBudgets,
} from './budgets.ts';
import { budgetedSizes, measureBundles, webDistDir } from './bundle-size.ts';
import { serveDist } from './static-dist.ts';

const ABOUT =
  'Gzip (level 9) KB budgets of the web app JavaScript, checked by `npm run check:budgets` in `npm test`. ' +
  'loginKb: every script the login screen fetches; signedInFrameKb: the Layout chunk beyond those; routesKb: ' +
  "each route's screen chunk and its static imports beyond both. Raise one only deliberately, saying why in the commit.";

function verdictLine(v: BudgetVerdict): string {
  const kb = Number.isNaN(v.kb) ? '-' : v.kb.toFixed(1);
  const budget = v.budgetKb === null ? '-' : String(v.budgetKb);
  const share = v.budgetKb && !Number.isNaN(v.kb) ? `${((v.kb / v.budgetKb) * 100).toFixed(0)} %` : '';
  return `  ${v.name.padEnd(28)} ${kb.padStart(7)} KB  budget ${budget.padStart(4)} KB ${share.padStart(6)}  ${v.ok ? 'ok' : 'OVER'}`;
}

const started = performance.now();
const distDir = webDistDir();
if (!existsSync(path.join(distDir, '.vite/manifest.json'))) {
  console.error(`check:budgets: no build manifest in ${distDir}/.vite/manifest.json: run \`npm run build\` first`);
  process.exit(1);
}
const server = await serveDist(distDir);
let sizes: MeasuredSize[];
try {
  sizes = budgetedSizes(await measureBundles(server.url, distDir));
} finally {
  await server.close();
}

if (process.argv.includes('--write')) {
  writeBudgets(budgetsFromSizes(sizes, ABOUT));
  console.log(`check:budgets: wrote ${path.relative(process.cwd(), BUDGETS_FILE)} from the sizes of ${distDir}`);
  process.exit(0);
}

const verdicts = compareWithBudgets(sizes, readBudgets());
console.log(`JavaScript size budgets, KB gzip (build: ${distDir}; budgets: bench/budgets.json):`);
for (const verdict of verdicts) console.log(verdictLine(verdict));
const failed = verdicts.filter((v) => !v.ok);
console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
if (failed.length > 0) {
  for (const verdict of failed) console.error(`check:budgets FAILED: ${verdict.problem}`);
  console.error(RAISE_HINT);
  process.exit(1);
}
