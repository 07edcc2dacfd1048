import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, menuEntries, newContext, signIn } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// docs/requirements/administration.md#menu, written out here rather than computed, so the test checks the rule instead
// of repeating it.
const EXPECTED: [username: string, menu: string[], landing: RegExp][] = [
  ['admin', ['profile', 'users', 'keepers', 'defaultOptions'], /\/profile$/],
  ['versadmin', ['profile', 'users', 'keepers', 'defaultOptions'], /\/$/],
  ['werkadmin', ['orders', 'deadlines', 'profile', 'workshop', 'users'], /\/$/],
  ['staff', ['orders', 'deadlines', 'profile'], /\/$/],
  ['wagonqa', ['orders', 'qualityCheck', 'deadlines', 'profile'], /\/$/],
  ['wheelsetqa', ['orders', 'qualityCheck', 'deadlines', 'profile'], /\/$/],
  ['qa', ['orders', 'qualityCheck', 'deadlines', 'profile'], /\/orders$/],
  ['holder', ['holderOrders', 'deadlines', 'profile'], /\/holder$/],
  ['werkadmin2', ['orders', 'deadlines', 'profile', 'workshop', 'users'], /\/$/],
  ['staff2', ['orders', 'deadlines', 'profile'], /\/$/],
];

describe('each demo role signs in and sees exactly its menu', () => {
  it.each(EXPECTED)('%s', async (username, menu, landing) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByTestId('drawer').count()).resolves.toBe(0); // no drawer or toolbar before sign-in
    await expect(page.getByTestId('toolbar-title').count()).resolves.toBe(0);
    await signIn(page, username);
    await page.getByTestId('menu').waitFor();
    await page.waitForURL(landing);
    expect(await menuEntries(page)).toEqual(menu);
    await expect(page.getByTestId('logout').isVisible()).resolves.toBe(true);
    if (menu.includes('workshop')) {
      const href = await page.getByTestId('menu-workshop').getAttribute('href');
      expect(href).toMatch(/^\/workshop\/\d+$/);
    }
    await context.close();
  });
});
