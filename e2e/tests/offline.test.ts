import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('connection indicators', () => {
  it('shows "you are offline" and the wifi-off indicator when the network goes, and clears them when it is back', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    const indicator = page.getByTestId('sync-indicator');
    await expect.poll(() => indicator.getAttribute('data-online')).toBe('true');
    await expect(indicator.getAttribute('data-unsent')).resolves.toBe('0');
    await context.setOffline(true);
    // The 10-second scheduler's online check notices it.
    await page.getByTestId('offline-banner').waitFor({ timeout: 25_000 });
    await expect(page.getByTestId('offline-banner').textContent()).resolves.toBe('Sie sind offline.');
    expect(await indicator.getAttribute('data-online')).toBe('false');
    await context.setOffline(false);
    await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 25_000 });
    await context.close();
  });
});
