import { checkDigit } from '@vers/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext } from '../support/browser.ts';
import { createOrderViaApi, openWagonOrder, statusOptions } from '../support/orders.ts';
import { E2E_PASSWORD } from '../support/server.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const wheelset = (i: number) => {
  const first11 = `4${String(2_000_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

/** A wagon order made through the real API, as the add-order screen would. */
function createOrder(): Promise<string> {
  return createOrderViaApi({
    type: 'WAGON',
    maintenanceNumber: '51 80 0843 001-0',
    wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelset(i) })) },
  });
}

const openOrder = openWagonOrder;
const options = statusOptions;

describe('order status', () => {
  it('a worker may only send an order to quality check; wagon QA may archive; done is read-only', async () => {
    const orderId = await createOrder();
    const worker = await newContext(browser);
    const page = await worker.newPage();
    await openOrder(page, 'staff', orderId);
    await expect(page.getByTestId('order-footer').textContent()).resolves.toContain('51 80 0843 001-0');
    await expect(page.getByTestId('order-status').textContent()).resolves.toBe('Neu');
    await page.getByTestId('status-change').click();
    expect(await options(page)).toEqual(['IN_QA']);
    await expect(page.getByTestId('status-option-IN_QA').locator('input').isChecked()).resolves.toBe(true);
    await page.getByTestId('status-save').click();
    await expect.poll(() => page.getByTestId('order-status').textContent()).toBe('In Qualitätsprüfung');
    await worker.close();

    const qa = await newContext(browser);
    const qaPage = await qa.newPage();
    await openOrder(qaPage, 'wagonqa', orderId);
    await qaPage.getByTestId('status-change').click();
    const offered = await options(qaPage);
    expect(offered).toContain('DONE_ARCHIVED');
    expect(offered).not.toContain('IN_QA');
    await qaPage.getByTestId('status-option-DONE').click();
    // Done is signed off with the password (issue 21; e2e/tests/sign-off.test.ts).
    await qaPage.getByTestId('sign-off-password').fill(E2E_PASSWORD);
    await qaPage.getByTestId('status-save').click();
    await qaPage.getByTestId('order-read-only').waitFor();
    await expect(qaPage.getByTestId('order-status').textContent()).resolves.toBe('Fertig');
    // Done: every input of the order is read-only, take-over and undo are off.
    const keeper = qaPage.locator('[data-key="$.Body.Wagen.technicalWaggonOutgoing.Halterkurzkennzeichen"]');
    await expect(keeper.isDisabled()).resolves.toBe(true);
    await expect(qaPage.getByTestId('take-over').isDisabled()).resolves.toBe(true);
    await expect(qaPage.getByTestId('undo').isDisabled()).resolves.toBe(true);
    await qa.close();

    const wheelsetQa = await newContext(browser);
    const wsPage = await wheelsetQa.newPage();
    await openOrder(wsPage, 'wheelsetqa', orderId);
    await wsPage.getByTestId('status-change').click();
    expect(await options(wsPage)).not.toContain('DONE_ARCHIVED');
    await wheelsetQa.close();
  });
});
