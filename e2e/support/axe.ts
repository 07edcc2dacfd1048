import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core's browser bundle as text. It is run with `page.evaluate`, which the DevTools protocol executes whatever
 * the page's Content-Security-Policy says; an inline script tag would be refused by a policy without
 * 'unsafe-inline'. (@axe-core/playwright would do the same but needs Node 22.)
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts that fail a test: a "serious" barrier blocks some users, a "critical" one blocks them fully. */
const FAILING_IMPACTS: readonly ImpactValue[] = ['serious', 'critical'];

/** One failing rule on one screen, with enough of each node to find it in the code. */
export interface AxeViolation {
  rule: string;
  impact: ImpactValue | undefined;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * Waits until the screen has loaded (no spinner in the page's content; a determinate bar, the editor's progress,
 * shows a value, not a load) and no CSS transition or finite animation runs. A dialog fading in has the colours of
 * half its way, and so has a button that a finished load enables (the workshop's e-mails: a CI run measured its
 * refresh button halfway from grey to blue): axe would measure a contrast no user reads for long. Endless animations
 * (the toolbar's spinner while the scheduler syncs) never end and are no fade.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="page-content"] [role="progressbar"]:not([aria-valuenow])') === null &&
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity,
        ),
  );
}

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2.0-2.2 A and AA, plus axe's best
 * practices). Screens that are not checked are part of the caller's choice, not of this function.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await settled(page);
  // A route change keeps the document, so axe stays loaded; a full navigation needs it again.
  const loaded = await page.evaluate(() => 'axe' in window);
  // `;0` so that the evaluation answers a plain value instead of whatever the bundle's last expression is.
  if (!loaded) await page.evaluate(`${AXE_SOURCE}\n;0`);
  const options: RunOptions = { resultTypes: ['violations'] };
  const results = await page.evaluate(
    // The window's `axe` is the bundle just evaluated; the page's own types do not know it.
    (runOptions) =>
      (window as unknown as { axe: { run(c: Document, o: RunOptions): Promise<AxeResults> } }).axe.run(
        document,
        runOptions,
      ),
    options,
  );
  return results.violations
    .filter((violation) => violation.impact && FAILING_IMPACTS.includes(violation.impact))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? undefined,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target.join(' '),
        html: node.html.slice(0, 300),
        summary: node.failureSummary ?? '',
      })),
    }));
}
