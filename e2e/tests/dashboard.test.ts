import { type Dashboard, checkDigit, dashboardSchema, deadlineListSchema, localDate } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { baseUrl, launchBrowser, newContext, serviceWorkerReady, signedInPage } from '../support/browser.ts';
import { apiToken, createOrderViaApi } from '../support/orders.ts';

/*
 * The start page's dashboard (issue 23, part 2): the workshop's counts of orders made through the API, a number that
 * opens the filtered list, and offline the device's figures with the turnaround's "needs a connection".
 */

const run = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
const wheelsetNumber = (i: number) => {
  const eleven = `49${run}${String(i).padStart(4, '0')}`;
  return `${eleven}${checkDigit(eleven)}`;
};

async function serverFigures(): Promise<Dashboard> {
  const res = await fetch(`${baseUrl()}/api/v1/dashboard`, {
    headers: { authorization: `Bearer ${await apiToken('staff')}` },
  });
  expect(res.status).toBe(200);
  return dashboardSchema.parse(await res.json());
}

/** The deadlines the tile counts: overdue, and due within 30 days. */
async function serverDeadlines(): Promise<{ overdue: number; dueSoon: number }> {
  const res = await fetch(`${baseUrl()}/api/v1/deadlines?within=30&overdue=true&today=${localDate()}`, {
    headers: { authorization: `Bearer ${await apiToken('staff')}` },
  });
  expect(res.status).toBe(200);
  const { deadlines } = deadlineListSchema.parse(await res.json());
  const overdue = deadlines.filter((deadline) => deadline.daysLeft < 0).length;
  return { overdue, dueSoon: deadlines.length - overdue };
}

const countOf = (figures: Dashboard, status: string) => figures.byStatus.find((row) => row.status === status)!.count;
const shown = (page: Page, testId: string) => page.getByTestId(testId).getAttribute('data-value').then(Number);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the start page dashboard', () => {
  it('shows the counts of orders made through the API, and a number opens the filtered list', async () => {
    const before = await serverFigures();
    const ids: string[] = [];
    for (const i of [1, 2]) {
      const number = wheelsetNumber(i);
      ids.push(
        await createOrderViaApi({
          id: crypto.randomUUID(),
          type: 'WHEELSET',
          maintenanceNumber: number,
          wheelset: { number },
        }),
      );
    }
    const toQa = await fetch(`${baseUrl()}/api/v1/orders/${ids[1]}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await apiToken('staff')}` },
      body: JSON.stringify({ status: 'IN_QA' }),
    });
    expect(toQa.status).toBe(200);
    const after = await serverFigures();
    expect(countOf(after, 'CREATED')).toBe(countOf(before, 'CREATED') + 1);
    expect(countOf(after, 'IN_QA')).toBe(countOf(before, 'IN_QA') + 1);

    const context = await newContext(browser);
    const page = await signedInPage(context, 'staff');
    await page.goto('/');
    await page.locator('[data-testid="dashboard"][data-source="server"]').waitFor();
    expect(await shown(page, 'dashboard-status-CREATED')).toBe(countOf(after, 'CREATED'));
    expect(await shown(page, 'dashboard-status-IN_QA')).toBe(countOf(after, 'IN_QA'));
    expect(await shown(page, 'dashboard-open-longer-count')).toBe(after.openLongerCount);
    expect(await shown(page, 'dashboard-unsent-count')).toBe(0);
    const deadlines = await serverDeadlines();
    await expect.poll(() => shown(page, 'dashboard-deadlines-overdue')).toBe(deadlines.overdue);
    expect(await shown(page, 'dashboard-deadlines-due-soon')).toBe(deadlines.dueSoon);
    await page.getByTestId('dashboard-turnaround-chart').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The in-QA figure opens the list filtered by that status, with the order made above in it.
    await page.getByTestId('dashboard-status-IN_QA').click();
    await page.waitForURL((url) => url.pathname === '/orders' && url.searchParams.get('status') === 'IN_QA');
    await page.getByTestId('orders-search').fill(wheelsetNumber(2));
    expect(await page.getByTestId('orders-status-filter').textContent()).toBe('In Qualitätsprüfung');
    await expect.poll(() => page.locator('tbody tr[data-testid^="order-row-"]').count()).toBe(1);

    // "Open longer than 14 days" opens the open orders filtered by age; the list shows that filter.
    await page.goto('/');
    await page.getByTestId('dashboard-open-longer-count').click();
    await page.waitForURL((url) => url.searchParams.get('olderThanDays') === '14');
    expect(new URL(page.url()).searchParams.get('status')).toBe('open');
    await expect.poll(() => page.getByTestId('orders-older-than').getAttribute('data-days')).toBe('14');

    // The overdue deadlines open the deadline list showing the overdue ones only.
    await page.goto('/');
    await page.getByTestId('dashboard-deadlines-overdue').click();
    await page.waitForURL((url) => url.pathname === '/deadlines' && url.searchParams.get('within') === 'none');
    await expect.poll(() => page.getByTestId('deadline-overdue-filter').getAttribute('aria-pressed')).toBe('true');

    // The unsent changes open the profile at its unsent card, scrolled into view (below the fold on a phone).
    await page.setViewportSize({ width: 412, height: 915 });
    const cardTop = () =>
      page.getByTestId('unsent-changes').evaluate((card) => card.getBoundingClientRect().top / window.innerHeight);
    await page.goto('/profile');
    await page.getByTestId('unsent-changes').waitFor();
    expect(await cardTop()).toBeGreaterThan(0.5); // without the hash it is out of sight
    await page.goto('/');
    await page.getByTestId('dashboard-unsent-count').click();
    await page.waitForURL((url) => url.pathname === '/profile' && url.hash === '#unsent');
    await expect.poll(async () => (await cardTop()) >= 0 && (await cardTop()) < 0.5).toBe(true);
    await context.close();
  });

  it('offline shows the device’s figures, says so, and that the turnaround needs a connection', async () => {
    const context = await newContext(browser);
    const page = await signedInPage(context, 'staff');
    await serviceWorkerReady(page);
    // The list once: the device keeps the workshop's open orders for offline work.
    await page.goto('/orders');
    await page.locator('[data-testid="orders-table"][data-kept="synced"]').waitFor();
    const kept = await page.evaluate(async () => {
      const open = indexedDB.open('versdb');
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const rows = await new Promise<{ order: { status: string } }[]>((resolve, reject) => {
        const request = db.transaction('orders').objectStore('orders').getAll();
        request.onsuccess = () => resolve(request.result as { order: { status: string } }[]);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return rows.filter((row) => row.order.status === 'IN_QA').length;
    });
    expect(kept).toBeGreaterThan(0);

    await context.setOffline(true);
    await page.goto('/');
    await page.locator('[data-testid="dashboard"][data-source="device"]').waitFor();
    await page.getByTestId('dashboard-device-note').waitFor();
    await page.getByTestId('dashboard-needs-connection').waitFor();
    await expect.poll(() => shown(page, 'dashboard-status-IN_QA')).toBe(kept);
    expect(await page.getByTestId('dashboard-turnaround-chart').count()).toBe(0);
    await page.getByTestId('dashboard-deadlines-overdue').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
