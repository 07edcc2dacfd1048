import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkDigit, formatVehicleNumber } from '@vers/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';

/** The build's map of sources to chunk files: the test names the chunk it takes away by its source. */
const MANIFEST = new URL('../../apps/web/dist/.vite/manifest.json', import.meta.url);

const withCheck = (first11: string) => `${first11}${checkDigit(first11)}`;

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
    // At once, as the indicator shows: the banner's code came with the indicator's (offline/status-views.ts).
    await context.setOffline(true);
    // The 10-second scheduler's online check notices it.
    await page.getByTestId('offline-banner').waitFor();
    await expect(page.getByTestId('offline-banner').textContent()).resolves.toBe('Sie sind offline.');
    expect(await indicator.getAttribute('data-online')).toBe('false');
    await context.setOffline(false);
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('a screen whose code has not loaded when the network goes', () => {
  // Until the service worker controls the page (the visit after the one that installed it), a screen's code not yet
  // loaded comes from the network. The network goes just as the deadlines screen's code is asked for: a Wi-Fi lost
  // right after sign-in (a CI run saw React Router's error page for developers in place of the start page).
  const deadlinesCode = /\/assets\/DeadlinesPage-[^/]+\.js$/;

  it('waits for the connection, says so, and opens when it is back', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('sync-indicator').waitFor();
    await context.route(deadlinesCode, async (route) => {
      await context.setOffline(true);
      await route.abort('internetdisconnected');
    });
    await page.getByTestId('menu-deadlines').click();
    const waits = page.getByTestId('page-waits-for-connection');
    await waits.waitFor();
    await expect(waits.textContent()).resolves.toBe('Diese Ansicht öffnet sich, sobald die Verbindung zurück ist.');
    await page.getByTestId('offline-banner').waitFor();
    // The frame stays: the menu and the screens already loaded are still there.
    expect(await page.getByTestId('menu-orders').isVisible()).toBe(true);
    expect(await page.getByTestId('screen-error').count()).toBe(0);
    await context.unroute(deadlinesCode);
    await context.setOffline(false);
    await page.getByTestId('deadline-filter').waitFor();
    await waits.waitFor({ state: 'detached' });
    await context.close();
  });

  it("shows the app's error screen with a reload when the server answers but the code is gone (a new version)", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('sync-indicator').waitFor();
    await context.route(deadlinesCode, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.getByTestId('menu-deadlines').click();
    await page.getByTestId('screen-error').waitFor();
    await expect(page.getByTestId('screen-error').textContent()).resolves.toBe(
      'Etwas ist schiefgegangen. Bitte versuchen Sie es erneut.',
    );
    expect(await page.getByText('Hey developer').count()).toBe(0);
    await context.unroute(deadlinesCode);
    await page.getByRole('button', { name: 'Neu laden' }).click();
    await page.getByTestId('deadline-filter').waitFor();
    await context.close();
  });
});

describe("the exchange's code lost with the network at sign-in", () => {
  it('is loaded once the network is back, and the exchange runs then without a reload', async () => {
    const manifest = JSON.parse(readFileSync(fileURLToPath(MANIFEST), 'utf8')) as Record<string, { file: string }>;
    const schedulerCode = manifest['src/offline/scheduler.ts']?.file;
    expect(schedulerCode).toMatch(/^assets\//);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await context.route(`**/${schedulerCode}`, async (route) => {
      await context.setOffline(true);
      await route.abort('internetdisconnected');
    });
    await signIn(page, 'staff');
    await page.getByTestId('page-waits-for-connection').first().waitFor();
    const exchanges = () => page.evaluate(() => performance.getEntriesByName('vers:exchange').length);
    expect(await exchanges()).toBe(0);
    await context.unroute(`**/${schedulerCode}`);
    await context.setOffline(false);
    await expect.poll(exchanges).toBeGreaterThan(0);
    await page.getByTestId('sync-indicator').waitFor();
    await context.close();
  });
});

describe('orders created offline', () => {
  it('are kept on the device, shown flagged, and sent when the network is back', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('menu-orders').click();
    await page.getByTestId('orders-table').waitFor();
    await page.getByTestId('order-new').click();
    await page.waitForURL(/\/orders\/add$/);
    const run = String(Math.floor(Math.random() * 1000)).padStart(3, '0');
    const wagon = withCheck(`3180665${run}0`);
    await page.getByTestId('order-number').fill(wagon);
    for (let i = 0; i < 4; i++) await page.getByTestId(`wheelset-number-${i}`).fill(withCheck(`4180665${run}${i}`));
    await page.getByTestId('order-external').fill(`E2E-OFF-${run}`);

    await context.setOffline(true);
    await page.getByTestId('order-save').click();
    await page.waitForURL(/\/orders$/);
    await page.getByText('auf diesem Gerät gespeichert', { exact: false }).first().waitFor();
    // The list comes from the device, the new order flagged as not yet sent.
    await page.getByTestId('orders-from-device').waitFor();
    const flagged = page.getByTestId('order-unsent');
    await expect.poll(() => flagged.count()).toBe(1);
    await expect(page.getByTestId('orders-table').textContent()).resolves.toContain(formatVehicleNumber(wagon));

    await context.setOffline(false);
    // The scheduler sends it within its 10-second period; the list refreshes itself and shows its order number.
    await page.getByTestId('orders-search').fill(wagon);
    await expect.poll(() => flagged.count()).toBe(0);
    await expect.poll(async () => (await page.getByTestId('orders-table').textContent()) ?? '').toMatch(/\d{4}-\d{6}/);
    await expect(flagged.count()).resolves.toBe(0);
    await context.close();
  });
});
