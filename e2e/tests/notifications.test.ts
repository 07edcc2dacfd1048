import { checkDigit } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, signIn } from '../support/browser.ts';

/*
 * Snackbars never over controls (issue 20): while a message shows, the page keeps room below its content, so the
 * add-order form's last buttons can be scrolled out from under it, on a phone and on a tablet.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The page's controls (buttons, fields, links) that the snackbar covers, by their test id or text. */
async function coveredControls(page: Page): Promise<string[]> {
  const snackbar = await page.getByTestId('snackbar').boundingBox();
  if (!snackbar) throw new Error('no snackbar shown');
  const controls = page.getByTestId('page-content').locator('button, input, textarea, a, [role="combobox"]');
  const covered: string[] = [];
  const all = await controls.all();
  if (all.length === 0) throw new Error('no controls found on the page');
  for (const control of all) {
    const box = await control.boundingBox();
    if (!box || box.width === 0) continue;
    if (overlaps(box, snackbar)) {
      covered.push((await control.getAttribute('data-testid')) ?? (await control.textContent()) ?? '?');
    }
  }
  return covered;
}

describe('snackbars', () => {
  it.each([
    ['phone', { width: 412, height: 915 }, 'de-DE'],
    ['tablet', { width: 1280, height: 800 }, 'en-GB'],
  ] as const)('leave the add-order form usable on a %s', async (_, viewport, locale) => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport, locale });
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('home-welcome').waitFor();
    await page.goto('/orders/add');
    // The server refuses the order: the form stays filled, its error shows in the snackbar.
    await page.route('**/api/v1/orders', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 409, json: { code: 'CONFLICT', message: 'Order id already used' } })
        : route.fallback(),
    );
    // A wagon order: the longest form, with its wheelset rows above the buttons.
    const first11 = `3180449${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    await page.getByTestId('order-number').fill(`${first11}${checkDigit(first11)}`);
    await page.getByTestId('order-external').fill('E2E-SNACKBAR');
    await expect.poll(() => page.getByTestId('order-save').isEnabled()).toBe(true);
    await page.getByTestId('order-save').click();
    await page.getByTestId('snackbar').waitFor();
    // The pointer rests on the message, which holds it open (MUI pauses its timer) while the page is measured.
    await page.getByTestId('snackbar').hover();
    // Scrolled to the end, as a user reaching for the form's buttons would, nothing the user may press lies under it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => coveredControls(page)).toEqual([]);
    await expect(page.getByTestId('order-save').isVisible()).resolves.toBe(true);
    await context.close();
  });
});
