import { LANGUAGE_STORAGE_KEY, ORDER_ROOTS, STORAGE_KEYS, localDate } from '@vers/domain';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled as animationsEnded, axeViolations } from '../support/axe.ts';
import { baseUrl, launchBrowser, serviceWorkerReady, signIn } from '../support/browser.ts';
import { type KeeperOrder, PHONE, TABLET, keeperOrderViaApi } from '../support/holder.ts';
import { dateField } from '../support/dates.ts';
import { pushViaApi } from '../support/orders.ts';

/*
 * The deadline list (issue 23): staff see an order's revision deadline due in 20 days under the 30-day filter and one
 * due in 80 days only once 90 is chosen; an overdue one shows as overdue; offline the list still shows the deadlines
 * of the orders the tablet holds; a holder sees only the keeper's wagons' deadlines. German and English, light and
 * dark, tablet and phone: nothing sticks out sideways, axe finds nothing serious, and a screenshot of each goes to
 * e2e/artifacts/deadlines for a person to look at.
 */

const SHOTS = path.resolve(process.env.DEADLINE_SHOTS ?? 'e2e/artifacts/deadlines');
const DEADLINE = `${ORDER_ROOTS.WAGON.out}.Revision.DatumLetzteFrist`;
const inDays = (days: number) => localDate(new Date(Date.now() + days * 86_400_000));

let browser: Browser;
/** Due in 20 days, keeper GATX (the demo holder's). */
let soon: KeeperOrder;
/** Due in 80 days, keeper VTG. */
let later: KeeperOrder;
/** Due 5 days ago, keeper VTG. */
let overdue: KeeperOrder;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
  [soon, later, overdue] = await Promise.all([
    keeperOrderViaApi('D-GATX'),
    keeperOrderViaApi('D-VTG'),
    keeperOrderViaApi('D-VTG'),
  ]);
  await pushViaApi(soon.id, { [DEADLINE]: inDays(20) });
  await pushViaApi(later.id, { [DEADLINE]: inDays(80) });
  await pushViaApi(overdue.id, { [DEADLINE]: inDays(-5) });
});
afterAll(async () => {
  await browser?.close();
});

async function device(
  language: 'de' | 'en',
  viewport: { width: number; height: number },
  dark = false,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl(), locale: `${language}-DE`, viewport });
  await context.addInitScript(
    ([languageKey, language, darkKey, dark]) => {
      localStorage.setItem(languageKey, language);
      localStorage.setItem(darkKey, dark);
    },
    [LANGUAGE_STORAGE_KEY, language, STORAGE_KEYS.darkMode, String(dark)] as const,
  );
  return context;
}

async function signedIn(context: BrowserContext, username: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, username);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  return page;
}

/** The list for a filter, once it has answered: the address sets the filter as the chips do. */
async function showList(page: Page, query = '') {
  await page.goto(`/deadlines${query}`);
  await page.locator('[data-testid="deadlines"][data-loading="false"]').waitFor();
}

const row = (page: Page, order: KeeperOrder) =>
  page.locator(`[data-testid="deadline-row"][data-order-id="${order.id}"]`);

/** The list has answered for the filter the chips now show. */
const settled = (page: Page, filter: string) =>
  page.locator(`[data-testid="deadlines"][data-loading="false"][data-filter="${filter}"]`).waitFor();

describe('the deadline list of a workshop', () => {
  it('shows 20 days under 30, 80 days only under 90, and the overdue one as overdue', async () => {
    const context = await device('de', TABLET);
    const page = await signedIn(context, 'staff');
    await page.getByTestId('menu-deadlines').click();
    await settled(page, '30:true');
    await expect(page.getByTestId('deadline-source').getAttribute('data-source')).resolves.toBe('server');
    await row(page, soon).waitFor();
    await expect(row(page, soon).getAttribute('data-days-left')).resolves.toBe('20');
    expect(await row(page, later).count()).toBe(0);
    await expect(row(page, overdue).getAttribute('data-days-left')).resolves.toBe('-5');
    expect(await row(page, overdue).getByTestId('deadline-overdue').textContent()).toBe('Überfällig');
    // Most urgent first: the overdue order above the one due in 20 days.
    const order = await page
      .locator('[data-testid="deadline-row"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')));
    expect(order.indexOf(overdue.id)).toBeLessThan(order.indexOf(soon.id));

    await page.getByTestId('deadline-within-90').click();
    await settled(page, '90:true');
    await expect(row(page, later).getAttribute('data-days-left')).resolves.toBe('80');
    // Without the overdue ones, the overdue order goes.
    await page.getByTestId('deadline-overdue-filter').click();
    await settled(page, '90:false');
    expect(await row(page, overdue).count()).toBe(0);
    await row(page, soon).waitFor();

    // A row opens the order's revision deadline tab.
    await row(page, soon).getByTestId('deadline-vehicle').click();
    await page.waitForURL(`**/orders/wagon/${soon.id}/revisionDeadline`);
    await context.close();
  });

  it('offline, still shows the deadlines of the orders the tablet holds', async () => {
    const context = await device('de', TABLET);
    const page = await signedIn(context, 'staff');
    await serviceWorkerReady(page);
    // The tablet holds the orders it opened.
    for (const order of [soon, overdue]) {
      await page.goto(`/orders/wagon/${order.id}/revisionDeadline`);
      await page.getByTestId('order-footer').waitFor();
      // The tablet has pulled the order's changes once the editor shows the deadline.
      await expect.poll(() => dateField(page, DEADLINE).shown()).not.toBe('');
    }
    await context.setOffline(true);
    await showList(page);
    await expect(page.getByTestId('deadline-source').getAttribute('data-source')).resolves.toBe('device');
    await expect(row(page, soon).getAttribute('data-days-left')).resolves.toBe('20');
    await expect(row(page, overdue).getAttribute('data-days-left')).resolves.toBe('-5');
    expect(await row(page, later).count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'de-1280-light-offline.png') });
    await context.close();
  });

  it('offline before the code of its device rule was loaded, says so with a retry that works once back online', async () => {
    // Until the service worker controls the page (the visit after the one that installed it), that code comes from
    // the network: offline, the list once showed its spinner for ever.
    const context = await device('de', TABLET);
    const page = await signedIn(context, 'staff');
    await page.getByTestId('menu-deadlines').click();
    await settled(page, '30:true');
    const deviceRule = /\/assets\/device-deadlines-[^/]+\.js$/;
    await context.route(deviceRule, (route) => route.abort('internetdisconnected'));
    await context.setOffline(true);
    await page.getByTestId('deadline-within-90').click();
    const failed = page.getByTestId('deadlines-load-error');
    await failed.waitFor();
    await context.unroute(deviceRule);
    await context.setOffline(false);
    await failed.getByRole('button', { name: 'Erneut versuchen' }).click();
    await settled(page, '90:true');
    await row(page, soon).waitFor();
    await context.close();
  });
});

describe('the deadline list of a holder', () => {
  it("shows only the keeper's wagons and opens the holder's order view", async () => {
    const context = await device('de', TABLET);
    const page = await signedIn(context, 'holder');
    await showList(page, '?within=90');
    await row(page, soon).waitFor();
    expect(await row(page, later).count()).toBe(0);
    expect(await row(page, overdue).count()).toBe(0);
    const shown = await page
      .locator('[data-testid="deadline-row"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')));
    expect(shown).not.toContain(later.id);
    await page.screenshot({ path: path.join(SHOTS, 'de-1280-light-holder.png') });
    await row(page, soon).getByTestId('deadline-vehicle').click();
    await page.waitForURL(`**/holder/orders/${soon.id}`);
    await context.close();
  });
});

/** How far the page is wider than its screen (0: nothing scrolls sideways). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.each([
  ['de', TABLET, false],
  ['de', TABLET, true],
  ['en', PHONE, false],
  ['en', PHONE, true],
  ['de', PHONE, true],
  ['en', TABLET, false],
] as const)('in %s at %o, dark %s', (language, viewport, dark) => {
  it('fits the screen, axe finds nothing serious, and the screenshot is kept', async () => {
    const context = await device(language, viewport, dark);
    const page = await signedIn(context, 'staff');
    await showList(page, '?within=90');
    await row(page, soon).waitFor();
    // The rows' entrance and the chips' ripple are over: the screenshot shows what a user reads.
    await animationsEnded(page);
    expect(await sideways(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    if (viewport === PHONE) {
      const box = await page.getByTestId('deadline-within-30').boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(48);
      // A card says how late an overdue deadline is in words, not as negative days left.
      // Only the line of days: the wagon number beside it may well end in "-5", its check digit.
      const late = await row(page, overdue).getByTestId('deadline-days').textContent();
      expect(late).toContain(language === 'de' ? 'Tage überfällig: 5' : 'Days overdue: 5');
      expect(late).not.toContain('-5');
    }
    await page.screenshot({
      path: path.join(SHOTS, `${language}-${viewport.width}-${dark ? 'dark' : 'light'}.png`),
    });
    await context.close();
  });
});
