import { checkDigit } from '@vers/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';
import { createOrderViaApi } from '../support/orders.ts';

const W_OUT = '$.Body.Wagen.technicalWaggonOutgoing';
const AXLE_LOAD = `${W_OUT}.AllowableAxleLoad`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const wheelsetNumber = (i: number) => {
  const first11 = `4${String(5_000_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

async function openOrder(context: BrowserContext, orderId: string, username: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, username);
  await page.getByTestId('menu').waitFor();
  await page.goto(`/orders/wagon/${orderId}/basedata`);
  await page.getByTestId('order-footer').waitFor();
  return page;
}

async function enter(page: Page, key: string, text: string) {
  const input = page.locator(`[data-key="${key}"]`);
  await input.fill(text);
  await input.press('Tab');
  await expect.poll(() => input.inputValue()).toBe(text);
}

const unsent = (page: Page) => page.getByTestId('sync-indicator').getAttribute('data-unsent');

describe('two users change the same field offline', () => {
  it('the server order decides; the user whose value lost is told (value, who, when); the history shows both', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i) })) },
    });
    const first = await newContext(browser);
    const second = await newContext(browser);
    const staff = await openOrder(first, orderId, 'staff');
    const admin = await openOrder(second, orderId, 'werkadmin');

    await first.setOffline(true);
    await second.setOffline(true);
    await enter(staff, AXLE_LOAD, '21');
    await enter(admin, AXLE_LOAD, '22');

    // The staff tablet comes back first; the admin's change reaches the server later and stands.
    await first.setOffline(false);
    await expect.poll(() => unsent(staff), { timeout: 30_000 }).toBe('0');
    await second.setOffline(false);
    await expect.poll(() => unsent(admin), { timeout: 30_000 }).toBe('0');

    const staffField = staff.locator(`[data-key="${AXLE_LOAD}"]`);
    await expect.poll(() => staffField.inputValue(), { timeout: 30_000 }).toBe('22');
    const note = staff.getByTestId('row-AllowableAxleLoad').getByTestId('lost-change');
    await note.waitFor();
    const text = (await note.textContent()) ?? '';
    expect(text).toContain('„21“');
    expect(text).toContain('„22“');
    expect(text).toMatch(/\d\d\.\d\d\.\d\d \d\d:\d\d/);
    // The winner is told nothing: their value stands.
    await expect(admin.getByTestId('lost-change').count()).resolves.toBe(0);

    // The field's history, from the activity log: both values, newest first, each with who and when.
    await staff.getByTestId('row-AllowableAxleLoad').getByTestId('history-open').click();
    const entries = staff.getByTestId('history-entry');
    await expect.poll(() => entries.count()).toBe(2);
    await expect(entries.nth(0).textContent()).resolves.toContain('22');
    await expect(entries.nth(1).textContent()).resolves.toContain('21');
    await staff.getByTestId('history-close').click();

    // Read: the note goes, also after a reload.
    await note.getByTestId('lost-change-ok').click();
    await expect.poll(() => staff.getByTestId('lost-change').count()).toBe(0);
    await staff.reload();
    await staff.getByTestId('order-footer').waitFor();
    await expect.poll(() => staffField.inputValue()).toBe('22');
    await expect(staff.getByTestId('lost-change').count()).resolves.toBe(0);
    await first.close();
    await second.close();
  });
});

describe('a change the server refuses', () => {
  it('stays on the device with its reason: the editor counts it, the profile page lists it', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i + 10) })) },
    });
    const context = await newContext(browser);
    const page = await openOrder(context, orderId, 'staff');
    await enter(page, AXLE_LOAD, '20');
    // A value no field takes, as an older app version or a damaged tablet might have stored it.
    await page.evaluate(
      async ({ orderId, key }) => {
        const owner = (JSON.parse(localStorage.getItem('vers-user') ?? '{}') as { id?: number }).id;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('versdb');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('orderResults', 'readwrite');
          tx.objectStore('orderResults').put({
            id: crypto.randomUUID(),
            orderId,
            key,
            outputValue: JSON.stringify({ value: 'twenty-two', CaptureDate: new Date().toISOString() }),
            activityType: 'XML_MODIFICATION',
            created: new Date().toISOString(),
            counter: Number.MAX_SAFE_INTEGER,
            counterLocal: 1000,
            reverted: false,
            sent: 0,
            ...(owner !== undefined ? { owner } : {}),
          });
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      },
      { orderId, key: AXLE_LOAD },
    );
    const notice = page.getByTestId('order-not-applied');
    await notice.waitFor({ timeout: 30_000 });
    await expect(notice.getAttribute('data-count')).resolves.toBe('1');
    // The good value still went.
    await expect.poll(() => unsent(page)).toBe('0');
    await page.getByTestId('order-not-applied-show').click();
    await page.waitForURL(/\/profile$/);
    const row = page.getByTestId('unsent-not-applied-row');
    await expect.poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('twenty-two');
    await expect(row.getByTestId('unsent-reason').textContent()).resolves.not.toBe('');
    await context.close();
  });
});
