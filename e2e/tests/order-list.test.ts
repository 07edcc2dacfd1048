import { checkDigit, formatVehicleNumber } from '@vers/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, serviceWorkerReady, signIn } from '../support/browser.ts';
import { apiToken, createOrderViaApi } from '../support/orders.ts';

/*
 * The order list at scale (issue 25): the device keeps the orders for offline work and follows the server's changes,
 * deletions from another device included; it searches them offline; an order it does not keep opens online only.
 */

const withCheck = (first11: string) => `${first11}${checkDigit(first11)}`;
const run = String(Math.floor(Math.random() * 1000)).padStart(3, '0');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A signed-in tablet whose app the service worker keeps, so that it also starts without a network. */
async function tablet(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, 'staff');
  await page.getByTestId('menu').waitFor();
  await serviceWorkerReady(page);
  return { context, page };
}

/** Opens the list and waits until the device has taken the server's changes into what it keeps. */
async function visitList(page: Page) {
  await page.goto('/orders');
  await page.locator('[data-testid="orders-table"][data-kept="synced"]').waitFor();
}

const wagonBody = (i: number) => {
  const number = withCheck(`3380${run}${String(i).padStart(4, '0')}`);
  return {
    id: crypto.randomUUID(),
    type: 'WAGON',
    contractor: 'DBC',
    externalOrderNumber: `E2E-LIST-${run}-${i}`,
    maintenanceNumber: number,
    wagon: {
      number,
      wheelsetsOutgoing: [1, 2].map((w) => ({ number: withCheck(`46${run}${String(i * 10 + w).padStart(6, '0')}`) })),
    },
  };
};

const tableText = async (page: Page) => (await page.getByTestId('orders-table').textContent()) ?? '';

describe('the order list at scale', () => {
  it('a deletion on one tablet leaves the other, which then searches what it keeps offline, wagons by their wheelsets', async () => {
    const kept = wagonBody(1);
    const deleted = wagonBody(2);
    await createOrderViaApi(kept);
    const deletedId = await createOrderViaApi(deleted);
    const a = await tablet();
    const b = await tablet();
    await visitList(b.page);
    await expect.poll(() => tableText(b.page)).toContain(formatVehicleNumber(deleted.maintenanceNumber));

    // Tablet a deletes the order through the list.
    await visitList(a.page);
    await a.page.getByTestId('orders-search').fill(deleted.maintenanceNumber);
    const row = a.page.getByTestId('orders-table').locator('tbody tr[data-testid^="order-row-"]').first();
    await expect.poll(() => row.textContent()).toContain(formatVehicleNumber(deleted.maintenanceNumber));
    const orderNumber = (await row.getAttribute('data-testid'))!.replace('order-row-', '');
    await a.page.getByTestId(`order-delete-${orderNumber}`).click();
    await a.page.getByTestId('confirm-ok').click();
    await expect.poll(() => a.page.getByTestId(`order-row-${orderNumber}`).count()).toBe(0);
    const gone = await fetch(`${baseUrl()}/api/v1/orders/${deletedId}`, {
      headers: { authorization: `Bearer ${await apiToken()}` },
    });
    expect(gone.status).toBe(404);

    // Tablet b visits the list again, then loses the network: the deleted order is gone from what it keeps.
    await visitList(b.page);
    await b.context.setOffline(true);
    await b.page.reload();
    await b.page.getByTestId('orders-from-device').waitFor();
    await b.page.getByTestId('orders-search').fill(`${run}0001`);
    await expect.poll(() => tableText(b.page)).toContain(formatVehicleNumber(kept.maintenanceNumber));
    await b.page.getByTestId('orders-search').fill(deleted.maintenanceNumber);
    await b.page.getByTestId('orders-empty').waitFor();
    // Offline, a wagon is found by a part of one of its wheelset numbers.
    const wheelset = kept.wagon.wheelsetsOutgoing[1]!.number;
    await b.page.getByTestId('orders-search').fill(wheelset.slice(4, 11));
    await expect.poll(() => tableText(b.page)).toContain(formatVehicleNumber(kept.maintenanceNumber));
    await a.context.close();
    await b.context.close();
  });

  it('on a phone, the rows coming in do not push the pagination down (no layout shift)', async () => {
    for (const i of [11, 12, 13]) await createOrderViaApi(wagonBody(i));
    const context = await newContext(browser);
    // Every layout shift of the page, with what it moved (the Layout Instability API, as Lighthouse's CLS reads it).
    await context.addInitScript(() => {
      const moved: string[] = [];
      (window as unknown as { moved: string[] }).moved = moved;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { sources: { node?: Node | null }[] }[]) {
          for (const source of entry.sources) {
            const node = source.node;
            moved.push(node instanceof Element ? (node.getAttribute('data-testid') ?? node.tagName) : 'text');
          }
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const page = await context.newPage();
    await page.setViewportSize({ width: 412, height: 915 });
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('drawer-open').waitFor();
    await page.goto('/orders');
    await page.locator('[data-testid="orders-table"][data-kept="synced"]').waitFor();
    await page.getByTestId('orders-pagination').waitFor();
    await expect.poll(() => page.getByTestId('orders-table').locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
    const moved = await page.evaluate(() => (window as unknown as { moved: string[] }).moved);
    expect(moved).not.toContain('orders-pagination');
    await context.close();
  });

  it('an order the tablet does not keep says so offline, and opens online (then it is kept)', async () => {
    const order = wagonBody(3);
    const orderId = await createOrderViaApi(order);
    // A tablet that never opened the list: it keeps nothing yet.
    const { context, page } = await tablet();
    await context.setOffline(true);
    await page.goto(`/orders/wagon/${orderId}`);
    await page.getByTestId('order-not-kept').waitFor();
    await expect(page.getByTestId('order-not-kept').textContent()).resolves.toContain('nicht auf diesem Gerät');

    await context.setOffline(false);
    await page.reload();
    const footer = page.getByTestId('order-footer');
    await expect.poll(() => footer.textContent()).toContain(formatVehicleNumber(order.maintenanceNumber));
    // Opened once, it stays on the tablet: offline it opens from there.
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => footer.textContent()).toContain(formatVehicleNumber(order.maintenanceNumber));
    await expect(page.getByTestId('order-not-kept').count()).resolves.toBe(0);
    await context.close();
  });

  it('sorts by a column and filters by status on the server, and the same from the device offline', async () => {
    const { context, page } = await tablet();
    await visitList(page);
    await page.getByTestId('orders-search').fill(`3380${run}`);
    await page.getByTestId('orders-sort-maintenanceNumber').click();
    const numbers = async () =>
      page.getByTestId('orders-table').locator('tbody td[data-column="maintenanceNumber"]').allTextContents();
    // The list shows the search's rows once the server has answered: until then it may still show the first page.
    const searched = (rows: string[]) =>
      rows.length > 0 && rows.every((number) => number.replace(/\D/g, '').startsWith(`3380${run}`));
    await expect.poll(async () => searched(await numbers())).toBe(true);
    await expect
      .poll(async () => {
        const rows = await numbers();
        return rows.join() === [...rows].sort().join();
      })
      .toBe(true);
    const online = await numbers();
    expect(searched(online)).toBe(true);
    await page.getByTestId('orders-status-filter').click();
    await page.getByTestId('orders-status-done').click();
    await page.getByTestId('orders-empty').waitFor();
    await page.getByTestId('orders-status-filter').click();
    await page.getByTestId('orders-status-open').click();
    await expect.poll(async () => searched(await numbers())).toBe(true);
    const openOnline = await numbers();

    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('orders-from-device').waitFor();
    await page.getByTestId('orders-search').fill(`3380${run}`);
    await page.getByTestId('orders-sort-maintenanceNumber').click();
    await page.getByTestId('orders-status-filter').click();
    await page.getByTestId('orders-status-open').click();
    await expect.poll(numbers).toEqual(openOnline);
    await context.close();
  });
});
