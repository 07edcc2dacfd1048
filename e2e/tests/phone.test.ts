import { checkDigit } from '@vers/domain';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AxeViolation, axeViolations, settled } from '../support/axe.ts';
import { baseUrl, launchBrowser, signIn } from '../support/browser.ts';
import { keeperOrderViaApi } from '../support/holder.ts';
import { createOrderViaApi } from '../support/orders.ts';

/*
 * Every screen on a phone (issue 20): at 412 and 360 CSS pixels nothing scrolls sideways, the menu is a drawer that
 * stays closed until the menu button opens it, and axe-core finds no serious or critical violation. A screenshot of
 * each screen goes to e2e/artifacts/phone for a person to look at.
 */

let browser: Browser;
let wagonOrderId: string;
/** A wagon of the demo keeper (D-GATX), released to service: the holder's screens show it (issue 22). */
let keeperOrderId: string;
const SHOTS = path.resolve('e2e/artifacts/phone');

const wheelsetNumber = (i: number) => {
  const first11 = `4${String(7_100_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

beforeAll(async () => {
  browser = await launchBrowser(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
  wagonOrderId = await createOrderViaApi({
    type: 'WAGON',
    maintenanceNumber: '21 81 2471 217-3',
    wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i) })) },
  });
  keeperOrderId = (await keeperOrderViaApi('D-GATX', { released: true })).id;
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** The phones: German and light at two widths, English and dark at the common one. */
const PHONES = [
  ['412', { width: 412, height: 915 }, 'de', false],
  ['360', { width: 360, height: 780 }, 'de', false],
  ['412-en-dark', { width: 412, height: 915 }, 'en', true],
] as const;

async function phone(viewport: { width: number; height: number }, language: string, dark: boolean) {
  const context = await browser.newContext({ baseURL: baseUrl(), locale: 'de-DE', viewport, permissions: ['camera'] });
  await context.addInitScript(
    ({ language, dark }) => {
      localStorage.setItem('vers-lang', language);
      localStorage.setItem('vers-dark-mode', String(dark));
    },
    { language, dark },
  );
  return context;
}

/** Signed in on a phone: the menu stays in its closed drawer, its button shows. */
async function signedInPhone(context: BrowserContext, username: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, username);
  await page.getByTestId('drawer-open').waitFor();
  return page;
}

/** How far the page is wider than the phone (0: nothing scrolls sideways), and what sticks out most. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    let widest = '';
    let right = width;
    for (const element of document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 1 && getComputedStyle(element).position !== 'fixed') {
        right = box.right;
        widest = `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[${element.getAttribute('data-testid')}]` : ''}`;
      }
    }
    // A table or list that scrolls sideways inside the page hides its columns from a phone's user just the same.
    const scrolling = [...document.querySelectorAll('body *')].filter((element) => {
      const overflowX = getComputedStyle(element).overflowX;
      return (overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1;
    });
    const inner = scrolling.map((element) => element.className.toString().split(' ')[0] ?? element.tagName);
    return { extra: document.documentElement.scrollWidth - width, widest, inner };
  });
}

describe.each(PHONES)('on a phone, %s', (width, viewport, language, dark) => {
  it('every screen fits without sideways scrolling, the menu stays closed, and axe finds no serious violation', async () => {
    const problems: string[] = [];
    const violations: { screen: string; found: AxeViolation[] }[] = [];
    let screens = 0;
    const look = async (page: Page, screen: string) => {
      await settled(page);
      screens += 1;
      const { extra, widest, inner } = await overflow(page);
      if (extra > 0) problems.push(`${screen}: ${extra} px wider than the phone (${widest})`);
      if (inner.length > 0) problems.push(`${screen}: scrolls sideways inside (${inner.join(', ')})`);
      if (await page.getByTestId('menu').isVisible()) problems.push(`${screen}: the menu covers the page`);
      const found = await axeViolations(page);
      if (found.length > 0) violations.push({ screen, found });
      await page.screenshot({ path: path.join(SHOTS, `${width}-${screen.replace(/\W+/g, '-')}.png`) });
    };

    const staff = await phone(viewport, language, dark);
    const page = await staff.newPage();
    await page.goto('/login');
    await page.getByTestId('login-username').waitFor();
    await look(page, 'login');
    await signIn(page, 'staff');
    await page.getByTestId('home-welcome').waitFor();
    await look(page, 'home');
    // The menu: opened by its button, it closes again when an entry is chosen.
    await page.getByTestId('drawer-open').click();
    await page.getByTestId('menu-orders').click();
    await page.locator('[data-testid="orders-table"][data-kept="synced"]').waitFor();
    await page.getByTestId('menu').waitFor({ state: 'hidden' });
    await look(page, 'orders');
    await page.getByTestId('order-new').click();
    await page.getByTestId('add-order-form').waitFor();
    await look(page, 'add order');
    await page.goto(`/orders/wagon/${wagonOrderId}/basedata`);
    await page.getByTestId('tab-basedata').waitFor();
    await look(page, 'editor basedata');
    await page.getByTestId('order-tab-select').click();
    await page.getByTestId('order-tab-brake').click();
    await page.getByTestId('tab-brake').waitFor();
    await look(page, 'editor brake');
    await page.getByTestId('status-change').click();
    await page.getByTestId('status-dialog').waitFor();
    await look(page, 'status dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('status-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('open-documents').click();
    await page.getByTestId('documents-page').waitFor();
    await look(page, 'documents');
    await page.goBack();
    await page.getByTestId('open-images').click();
    await page.getByTestId('images-empty').waitFor();
    await look(page, 'images');
    await page.goBack();
    await page.getByTestId('open-camera').click();
    await expect.poll(() => page.getByTestId('camera-page').getAttribute('data-mode')).toBe('live');
    await look(page, 'camera');
    await page.goto('/profile');
    await page.getByTestId('profile-username').waitFor();
    await look(page, 'profile');
    await staff.close();

    const admin = await phone(viewport, language, dark);
    const adminPage = await signedInPhone(admin, 'werkadmin');
    await adminPage.goto('/users');
    await adminPage.getByTestId('users-table').waitFor();
    await look(adminPage, 'users');
    await adminPage.getByTestId('drawer-open').click();
    await adminPage.getByTestId('menu-workshop').click();
    await adminPage.getByTestId('workshop-form').waitFor();
    await look(adminPage, 'workshop');
    await admin.close();

    const versAdmin = await phone(viewport, language, dark);
    const listsPage = await signedInPhone(versAdmin, 'versadmin');
    await listsPage.goto('/defaultoptions');
    await listsPage.getByTestId('default-option-row-ListAuftraggeber').waitFor();
    await look(listsPage, 'value lists');
    await listsPage.getByTestId('default-option-row-ListAuftraggeber').click();
    await listsPage.getByTestId('values-table').waitFor();
    await look(listsPage, 'value list');
    // A system admin's users page, with its workshop picker (issue 20).
    await listsPage.goto('/users');
    await listsPage.getByTestId('user-row-versadmin').waitFor();
    await listsPage.getByTestId('users-workshop').waitFor({ state: 'attached' });
    await look(listsPage, 'users of a system admin');
    await listsPage.goto('/keepers');
    await listsPage.locator('[data-testid^="keeper-row-"]').first().waitFor();
    await look(listsPage, 'keepers');
    await versAdmin.close();

    // The holder's wagon list and a wagon's order (issue 22).
    const holder = await phone(viewport, language, dark);
    const holderPage = await signedInPhone(holder, 'holder');
    await holderPage.waitForURL(/\/holder$/);
    await holderPage.getByTestId('holder-order-row').first().waitFor();
    await look(holderPage, 'holder wagons');
    await holderPage.goto(`/holder/orders/${keeperOrderId}`);
    await holderPage.getByTestId('holder-values').waitFor();
    await look(holderPage, 'holder order');
    await holder.close();

    expect(screens).toBe(19);
    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
  }, 180_000);
});
