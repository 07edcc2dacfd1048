import { checkDigit } from '@vers/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';
import { createOrderViaApi, serverValue } from '../support/orders.ts';

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

describe('a value entered without seeing another', () => {
  // The case: A is offline; B changes the field online; A, still offline, types it later and comes back.
  it('is a conflict both users see, with who and when, until one of them keeps a value', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i) })) },
    });
    const first = await newContext(browser);
    const second = await newContext(browser, 'en-GB');
    const staff = await openOrder(first, orderId, 'staff');
    const admin = await openOrder(second, orderId, 'werkadmin');

    await first.setOffline(true);
    await enter(admin, AXLE_LOAD, '22');
    await expect.poll(() => serverValue(orderId, AXLE_LOAD)).toBe('22');
    await enter(staff, AXLE_LOAD, '21');
    await first.setOffline(false);
    await expect.poll(() => serverValue(orderId, AXLE_LOAD)).toBe('21');

    // Staff's value stands (it came last), and staff is told whose unseen value it replaced.
    const staffNote = staff.getByTestId('row-AllowableAxleLoad').getByTestId('conflict');
    await staffNote.waitFor();
    const staffText = (await staffNote.textContent()) ?? '';
    expect(staffText).toContain('„21“');
    expect(staffText).toContain('„22“');
    expect(staffText).toContain('Werner Werkleiter');
    expect(staffText).toMatch(/\d\d\.\d\d\.\d\d \d\d:\d\d/);
    await expect(staff.getByTestId('order-conflicts').getAttribute('data-count')).resolves.toBe('1');

    // The admin, whose value was replaced, sees it too once the exchange brings the change (English here).
    const adminField = admin.locator(`[data-key="${AXLE_LOAD}"]`);
    await expect.poll(() => adminField.inputValue()).toBe('21');
    const adminNote = admin.getByTestId('row-AllowableAxleLoad').getByTestId('conflict');
    await adminNote.waitFor();
    const adminText = (await adminNote.textContent()) ?? '';
    expect(adminText).toContain('Your value “22” was replaced by “21”');
    expect(adminText).toContain('Stefan Schlosser');

    // A reload does not make it go away: it is read from the order's log.
    await staff.reload();
    await staffNote.waitFor();

    // The admin keeps their value: one tap, a new change, and the conflict is gone on both tablets.
    await adminNote.locator('[data-testid="conflict-keep"][data-value="22"]').click();
    await expect.poll(() => admin.getByTestId('conflict').count()).toBe(0);
    await expect.poll(() => serverValue(orderId, AXLE_LOAD)).toBe('22');
    const staffField = staff.locator(`[data-key="${AXLE_LOAD}"]`);
    await expect.poll(() => staffField.inputValue()).toBe('22');
    await expect.poll(() => staff.getByTestId('conflict').count()).toBe(0);

    // The field's history keeps all three, newest first, each with who and when.
    await staff.getByTestId('row-AllowableAxleLoad').getByTestId('history-open').click();
    const entries = staff.getByTestId('history-entry');
    await expect.poll(() => entries.count()).toBe(3);
    await expect(entries.nth(0).textContent()).resolves.toContain('22');
    await expect(entries.nth(1).textContent()).resolves.toContain('21');
    await expect(entries.nth(2).textContent()).resolves.toContain('22');
    await first.close();
    await second.close();
  });
});

describe('undo', () => {
  it('of a user who made no change here is disabled and says why; it never takes back a colleague’s value', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i + 20) })) },
    });
    const first = await newContext(browser);
    const second = await newContext(browser);
    const staff = await openOrder(first, orderId, 'staff');
    await enter(staff, AXLE_LOAD, '23');
    await expect.poll(() => serverValue(orderId, AXLE_LOAD)).toBe('23');

    const admin = await openOrder(second, orderId, 'werkadmin');
    const adminField = admin.locator(`[data-key="${AXLE_LOAD}"]`);
    await expect.poll(() => adminField.inputValue()).toBe('23');
    await expect(admin.getByTestId('undo').isDisabled()).resolves.toBe(true);
    await admin.getByTestId('undo-wrapper').hover();
    await expect(admin.getByRole('tooltip').textContent()).resolves.toContain('keine Änderung');
    // The admin's tablet exchanges again: the staff's value stays, on the server too.
    await admin.getByTestId('sync-now').click();
    await expect.poll(() => unsent(admin)).toBe('0');
    await staff.getByTestId('sync-now').click();
    await expect.poll(() => serverValue(orderId, AXLE_LOAD)).toBe('23');
    await expect.poll(() => staff.locator(`[data-key="${AXLE_LOAD}"]`).inputValue()).toBe('23');

    // The staff's own undo names the field and its tab and goes to it.
    await staff.getByTestId('order-tab-brake').click();
    await staff.waitForURL(/\/brake$/);
    await staff.getByTestId('undo').click();
    const message = staff.getByTestId('snackbar');
    await expect.poll(() => message.textContent()).toContain('Rückgängig gemacht: Stammdaten');
    await expect.poll(() => message.textContent()).toContain('Ausgang');
    await staff.waitForURL(/\/basedata$/);
    await expect
      .poll(() => staff.evaluate((key) => !!document.activeElement?.querySelector(`[data-key="${key}"]`), AXLE_LOAD))
      .toBe(true);
    await expect.poll(() => staff.locator(`[data-key="${AXLE_LOAD}"]`).inputValue()).toBe('');
    await expect(staff.getByTestId('undo').isDisabled()).resolves.toBe(true);
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
    await notice.waitFor();
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
