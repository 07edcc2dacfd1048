import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { attributeValue, checkDigit, formatVehicleNumber } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, serviceWorkerReady, signIn } from '../support/browser.ts';
import { apiToken, createOrderViaApi, statusOptions } from '../support/orders.ts';
import { E2E_PASSWORD } from '../support/server.ts';

/*
 * The quality manager (ROLE_WORKSHOP_QA, demo user `qa`; issue 21, part 3) in Chromium: signs in, lands on the order
 * list without "new order" or delete, opens the quality check from the menu (the list filtered to the orders in
 * quality check), opens an order there and finds it read-only for its role (values shown, inputs disabled, no camera,
 * undo or take-over), is offered IN_WORK and DONE and sets DONE. In German and English, at tablet and phone width,
 * with screenshots of the queue and the read-only order in e2e/artifacts/quality-manager.
 */

let browser: Browser;
const SHOTS = path.resolve('e2e/artifacts/quality-manager');

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const OUT = '$.Body.Wagen.technicalWaggonOutgoing';
const KEEPER = `${OUT}.Halterkurzkennzeichen`;

/** A wagon number of this run only (random serial), so that a search finds this test's orders alone. */
function wagonNumber(): string {
  const first11 = `31804455${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  return `${first11}${checkDigit(first11)}`;
}

let wheelsetSerial = 0;
const wheelset = () => {
  const first11 = `4${String(3_300_000_000 + Math.floor(Math.random() * 100_000) * 10 + (wheelsetSerial++ % 10)).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

async function api(method: string, pathname: string, body: unknown, username = 'staff') {
  const res = await fetch(`${baseUrl()}/api/v1/${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await apiToken(username)}` },
    body: JSON.stringify(body),
  });
  expect(res.status, `${method} ${pathname}`).toBe(200);
  return res.json() as Promise<unknown>;
}

/**
 * Staff's two wagon orders of one new number: one with a keeper marking, handed to quality check, one still new.
 * Answers the number and the orders' ids.
 */
async function ordersOfStaff() {
  const number = wagonNumber();
  const create = () =>
    createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: number,
      wagon: { wheelsetsOutgoing: [0, 1].map(() => ({ number: wheelset() })) },
    });
  const inQa = await create();
  const created = await create();
  await staffEnters(inQa, KEEPER, 'D-VTG');
  await api('POST', `orders/${inQa}/status`, { status: 'IN_QA' });
  return { number, inQa, created };
}

/** A value staff enters into an order, sent as the browser sends it. */
async function staffEnters(orderId: string, key: string, value: string) {
  const now = new Date();
  await api('POST', 'activity', {
    id: randomUUID(),
    oI: orderId,
    k: key,
    t: 'XML_MODIFICATION',
    oV: JSON.stringify(attributeValue(value, now)),
    c: now.toISOString(),
  });
}

/** A page of a fresh browser profile, signed in as the quality manager, once it has landed on the order list. */
async function signedInAsQa(
  language: keyof typeof TEXTS = 'de',
  viewport: { width: number; height: number } = SIZES[0][1],
): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), locale: TEXTS[language].locale, viewport });
  await context.addInitScript((lang) => localStorage.setItem('vers-lang', lang), language);
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, 'qa');
  // The start page is not the role's: it lands on the order list.
  await page.waitForURL(/\/orders$/);
  return page;
}

async function statusOnServer(orderId: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/v1/orders/${orderId}`, {
    headers: { authorization: `Bearer ${await apiToken('qa')}` },
  });
  return ((await res.json()) as { status: string }).status;
}

const TEXTS = {
  de: {
    locale: 'de-DE',
    queue: 'Qualitätsprüfung',
    inQa: 'In Qualitätsprüfung',
    readOnly: 'Ihre Rolle darf diesen Auftrag ansehen, seine Einträge aber nicht ändern.',
    done: 'Fertig',
  },
  en: {
    locale: 'en-GB',
    queue: 'Quality check',
    inQa: 'In quality check',
    readOnly: 'Your role may view this order but not change its entries.',
    done: 'Done',
  },
} as const;

const SIZES = [
  ['tablet', { width: 1280, height: 800 }],
  ['phone', { width: 412, height: 915 }],
] as const;

describe('the quality manager', () => {
  const RUNS = (['de', 'en'] as const).flatMap((language) =>
    SIZES.map(([size, viewport]) => [language, size, viewport] as const),
  );
  it.each(RUNS)(
    '%s, %s: opens the quality check, reads an order there and passes it as done',
    async (language, size, viewport) => {
      const text = TEXTS[language];
      const { number, inQa, created } = await ordersOfStaff();
      const page = await signedInAsQa(language, viewport);
      // The order list offers neither new orders nor deletion.
      await page.getByTestId('orders-table').waitFor();
      await expect(page.getByTestId('order-new').count()).resolves.toBe(0);
      await page.getByTestId('orders-search').fill(formatVehicleNumber(number));
      await page.getByTestId(`order-row-${await orderNumber(inQa)}`).waitFor();
      await page.getByTestId(`order-row-${await orderNumber(created)}`).waitFor();
      await expect(page.locator('[data-testid^="order-delete-"]').count()).resolves.toBe(0);

      // The quality check from the menu: the list of the orders in quality check, titled so.
      if (size === 'phone') await page.getByTestId('drawer-open').click();
      await page.getByTestId('menu-qualityCheck').click();
      await page.waitForURL(/\/orders\?status=IN_QA$/);
      await expect.poll(() => page.getByTestId('toolbar-title').textContent()).toBe(text.queue);
      await expect(page.getByTestId('orders-status-filter').textContent()).resolves.toBe(text.inQa);
      await page.getByTestId('orders-search').fill(formatVehicleNumber(number));
      const row = page.getByTestId(`order-row-${await orderNumber(inQa)}`);
      await row.waitFor();
      await expect.poll(() => page.locator('tbody tr[data-testid^="order-row-"]').count()).toBe(1);
      // The new order of the same number is not in the queue.
      await expect(row.locator('[data-column="status"]').textContent()).resolves.toContain(text.inQa);
      await page.screenshot({ path: path.join(SHOTS, `${language}-${size}-queue.png`) });

      // The order: its values shown, every input disabled, said so; nothing that only changes it.
      await row.click();
      await page.waitForURL(new RegExp(`/orders/wagon/${inQa}`));
      const notice = page.getByTestId('order-read-only');
      await notice.waitFor();
      await expect(notice.getAttribute('data-reason')).resolves.toBe('role');
      await expect(notice.textContent()).resolves.toBe(text.readOnly);
      const keeper = page.locator(`[data-key="${KEEPER}"]`);
      await expect.poll(() => keeper.inputValue()).toBe('D-VTG');
      await expect(keeper.isDisabled()).resolves.toBe(true);
      // Every input of the tab, and every button of its yes/no and choice switches.
      const inputs = await page
        .getByTestId('edit-order')
        .locator('input[data-key], textarea[data-key], [data-key] button')
        .evaluateAll((elements) => elements.map((element) => (element as HTMLInputElement).disabled));
      expect(inputs.length).toBeGreaterThan(5);
      expect(inputs.filter((disabled) => !disabled)).toEqual([]);
      for (const action of ['open-camera', 'undo', 'take-over']) {
        await expect(page.getByTestId(action).count(), action).resolves.toBe(0);
      }
      await expect(page.getByTestId('open-documents').isVisible()).resolves.toBe(true);
      await expect(page.getByTestId('open-images').isVisible()).resolves.toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `${language}-${size}-order.png`) });

      // The status: back to work or done, nothing else; done it is.
      await page.getByTestId('status-change').click();
      expect(await statusOptions(page)).toEqual(['IN_WORK', 'DONE']);
      await page.getByTestId('status-option-DONE').click();
      await page.getByTestId('sign-off-password').fill(E2E_PASSWORD); // done is signed off (issue 21)
      await page.getByTestId('status-save').click();
      await expect.poll(() => page.getByTestId('order-status').textContent()).toBe(text.done);
      await expect.poll(() => statusOnServer(inQa)).toBe('DONE');
      await page.context().close();
    },
  );

  it('offline, cannot sign an order done but sends it back to work while staff still changes it; the change of status goes when the network is back', async () => {
    const { inQa } = await ordersOfStaff();
    const page = await signedInAsQa();
    const context = page.context();
    await page.goto(`/orders/wagon/${inQa}`);
    await page.getByTestId('order-read-only').waitFor();
    const indicator = page.getByTestId('sync-indicator');
    await expect.poll(() => indicator.getAttribute('data-online')).toBe('true');
    await serviceWorkerReady(page);

    await context.setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    await page.getByTestId('status-change').click();
    await page.getByTestId('status-dialog').waitFor();
    // Done needs a sign-off, and a sign-off needs the server: the dialog says so and offers no way to sign.
    await page.getByTestId('status-option-DONE').click();
    await page.getByTestId('sign-off-offline').waitFor();
    await expect(page.getByTestId('status-save').isDisabled()).resolves.toBe(true);
    await page.getByTestId('status-option-IN_WORK').click();
    await page.getByTestId('status-save').click();
    await page.getByText('die Statusänderung ist gespeichert und wird später gesendet', { exact: false }).waitFor();
    await expect.poll(() => indicator.getAttribute('data-unsent')).toBe('1');
    // Meanwhile staff, online, changes the order.
    await staffEnters(inQa, `${OUT}.Eigengewicht`, '23950');
    expect(await statusOnServer(inQa)).toBe('IN_QA');

    // Back online: the scheduler sends the status change through the status call the role may use (not the batch of
    // changes it may not), and brings staff's change.
    await context.setOffline(false);
    await expect.poll(() => statusOnServer(inQa)).toBe('IN_WORK');
    await expect.poll(() => indicator.getAttribute('data-unsent')).toBe('0');
    await expect(page.getByTestId('order-not-applied').count()).resolves.toBe(0);
    await expect(page.getByTestId('order-status').textContent()).resolves.toBe('In Arbeit');
    await page.getByTestId('order-tab-basedata').click();
    await expect.poll(() => page.locator(`[data-key="${OUT}.Eigengewicht"]`).inputValue()).toContain('23');
    await context.close();
  });

  it('sees pictures but takes and deletes none, and may not open adding an order', async () => {
    const { inQa } = await ordersOfStaff();
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    await api('POST', 'assets', {
      id: randomUUID(),
      type: 'PICTURE',
      filename: 'puffer.png',
      base64: png,
      size: Buffer.from(png, 'base64').length,
      orderId: inQa,
    });
    const page = await signedInAsQa();
    await page.goto(`/orders/wagon/${inQa}`);
    await page.getByTestId('order-read-only').waitFor();
    await page.getByTestId('open-images').click();
    await page.getByTestId('images-page').waitFor();
    await expect.poll(() => page.getByTestId('image-card').count()).toBe(1);
    await expect(page.getByTestId('image-delete').count()).resolves.toBe(0);
    await expect(page.getByTestId('images-take').count()).resolves.toBe(0);

    // Adding an order is not the role's screen: the guard signs it out with the 403 reason.
    await page.goto('/orders/add');
    await page.waitForURL(/\/login\?redirect=/);
    await page.context().close();
  });
});

/** The readable order number the list names a row by. */
async function orderNumber(orderId: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/v1/orders/${orderId}`, {
    headers: { authorization: `Bearer ${await apiToken('qa')}` },
  });
  return ((await res.json()) as { number: string }).number;
}
