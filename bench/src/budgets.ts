// Size budgets of the web app's JavaScript (gzip), kept in bench/budgets.json and enforced by `npm run
// check:budgets` inside `npm test`. Pure functions here: the comparison is unit-tested beside it.
import { readFileSync, writeFileSync } from 'node:fs';

export const BUDGETS_FILE = new URL('../budgets.json', import.meta.url).pathname;

export interface Budgets {
  about: string;
  /** Every script the login screen fetches, KB gzip. */
  loginKb: number;
  /** The signed-in frame (drawer, toolbar) beyond the login screen's scripts, KB gzip. */
  signedInFrameKb: number;
  /** Per route of the router: its screen's chunks beyond the login screen's and the frame's, KB gzip. */
  routesKb: Record<string, number>;
}

/** One measured size, named as its budget is: 'login screen', 'signed-in frame', 'route <name>'. */
export interface MeasuredSize {
  name: string;
  kb: number;
}

export interface BudgetVerdict {
  name: string;
  kb: number;
  /** null: the measured thing has no budget, which fails the check as well. */
  budgetKb: number | null;
  ok: boolean;
  /** Why it fails, in words; null when it is within its budget. */
  problem: string | null;
}

export const LOGIN = 'login screen';
export const FRAME = 'signed-in frame';
export const routeFigureName = (route: string) => `route ${route}`;

/** Room over today's size that a new budget allows: a few per cent, so that real growth shows at once. */
const LOGIN_HEADROOM = 1.04;
const ROUTE_HEADROOM = 1.05;

export const RAISE_HINT =
  'If the growth is deliberate, raise that budget in bench/budgets.json (or run `npm run check:budgets -- --write`, ' +
  'which sets every budget to the measured size plus 4-5 % headroom, after a `npm run build`) and say in the commit ' +
  'message why the app needs the extra KB. Otherwise find what grew: `npx vite build` in apps/web lists the chunks.';

function budgetFor(name: string, budgets: Budgets): number | null {
  if (name === LOGIN) return budgets.loginKb;
  if (name === FRAME) return budgets.signedInFrameKb;
  if (name.startsWith('route ')) return budgets.routesKb[name.slice('route '.length)] ?? null;
  return null;
}

/** Each measured size against its budget; budgets of routes that were not measured are reported as stale. */
export function compareWithBudgets(measured: readonly MeasuredSize[], budgets: Budgets): BudgetVerdict[] {
  const verdicts = measured.map((size): BudgetVerdict => {
    const budgetKb = budgetFor(size.name, budgets);
    if (budgetKb === null) {
      return { ...size, budgetKb, ok: false, problem: `${size.name} has no budget in bench/budgets.json` };
    }
    if (size.kb > budgetKb) {
      const over = ((size.kb / budgetKb - 1) * 100).toFixed(1);
      return {
        ...size,
        budgetKb,
        ok: false,
        problem: `${size.name} is ${size.kb.toFixed(1)} KB gzip, over its budget of ${budgetKb} KB by ${over} %`,
      };
    }
    return { ...size, budgetKb, ok: true, problem: null };
  });
  const measuredNames = new Set(measured.map((size) => size.name));
  for (const route of Object.keys(budgets.routesKb)) {
    if (measuredNames.has(routeFigureName(route))) continue;
    verdicts.push({
      name: routeFigureName(route),
      kb: NaN,
      budgetKb: budgets.routesKb[route]!,
      ok: false,
      problem: `bench/budgets.json has a budget for route ${route}, which the router no longer lazy-loads: remove it`,
    });
  }
  return verdicts;
}

/** Budgets from today's sizes plus headroom, rounded up to whole KB. */
export function budgetsFromSizes(measured: readonly MeasuredSize[], about: string): Budgets {
  const kb = (name: string) => measured.find((size) => size.name === name)?.kb ?? 0;
  const routesKb: Record<string, number> = {};
  for (const size of measured) {
    if (size.name.startsWith('route '))
      routesKb[size.name.slice('route '.length)] = Math.ceil(size.kb * ROUTE_HEADROOM);
  }
  return {
    about,
    loginKb: Math.ceil(kb(LOGIN) * LOGIN_HEADROOM),
    signedInFrameKb: Math.ceil(kb(FRAME) * ROUTE_HEADROOM),
    routesKb,
  };
}

export function readBudgets(file = BUDGETS_FILE): Budgets {
  return JSON.parse(readFileSync(file, 'utf8')) as Budgets;
}

export function writeBudgets(budgets: Budgets, file = BUDGETS_FILE): void {
  writeFileSync(file, `${JSON.stringify(budgets, null, 2)}\n`);
}
