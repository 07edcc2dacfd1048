import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkDigit } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn } from '../support/browser.ts';
import { createOrderViaApi, apiToken, serverValue } from '../support/orders.ts';
import { type RunningProduct, startProduct } from '../support/server.ts';

/*
 * The restore case through the real web app (issue 16): a product of its own, whose embedded database folder is
 * copied while it is stopped (the backup) and put back later (the restore). A tablet that had two more values
 * acknowledged in between must get them onto the restored server by itself, beside a colleague's change that the
 * restored server gave one of the same counters.
 */

const OUT = '$.Body.Wagen.technicalWaggonOutgoing';
const FIELDS = {
  axleLoad: `${OUT}.AllowableAxleLoad`,
  tare: `${OUT}.Eigengewicht`,
  marking: `${OUT}.Halterkurzkennzeichen`,
};

let browser: Browser;
let product: RunningProduct;
let dataDir: string;
let port: number;

const restart = async () => {
  product = await startProduct({}, { dataDir, port });
};

beforeAll(async () => {
  browser = await launchBrowser();
  dataDir = mkdtempSync(path.join(tmpdir(), 'vers-e2e-restore-'));
  product = await startProduct({}, { dataDir });
  port = Number(new URL(product.url).port);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const wheelsetNumber = (i: number) => {
  const first11 = `4${String(6_000_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

async function enter(page: Page, key: string, text: string) {
  const input = page.locator(`[data-key="${key}"]`);
  await input.fill(text);
  await input.press('Tab');
  await expect.poll(() => input.inputValue()).toBe(text);
}

describe('a server restored from a backup', () => {
  it('gets the values a tablet had sent after the backup again from that tablet, beside a colleague’s new ones', async () => {
    const origin = product.url;
    const orderId = await createOrderViaApi(
      {
        type: 'WAGON',
        maintenanceNumber: '21 81 2471 217-3',
        wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i) })) },
      },
      'staff',
      origin,
    );
    const value = (key: string) => serverValue(orderId, key, 'staff', origin);
    const context = await browser.newContext({
      baseURL: origin,
      locale: 'de-DE',
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('menu').waitFor();
    await page.goto(`/orders/wagon/${orderId}/basedata`);
    await page.getByTestId('order-footer').waitFor();
    await enter(page, FIELDS.axleLoad, '21');
    await expect.poll(() => value(FIELDS.axleLoad)).toBe('21');

    // The backup: the operator stops the server and copies its data folder.
    await product.stop();
    const backup = path.join(dataDir, 'backup');
    cpSync(path.join(dataDir, 'pglite'), backup, { recursive: true });
    await restart();

    // Two more values, acknowledged by the server.
    await enter(page, FIELDS.tare, '22500');
    await enter(page, FIELDS.axleLoad, '22');
    await expect.poll(() => value(FIELDS.tare)).toBe('22500');
    await expect.poll(() => value(FIELDS.axleLoad)).toBe('22');

    // The restore: the folder from the backup goes back in place.
    await product.stop();
    rmSync(path.join(dataDir, 'pglite'), { recursive: true, force: true });
    cpSync(backup, path.join(dataDir, 'pglite'), { recursive: true });
    await restart();
    expect(await value(FIELDS.tare)).toBeNull();

    // A colleague changes another field at once: the restored server gives it a counter the tablet holds.
    const token = await apiToken('werkadmin', origin);
    const now = new Date().toISOString();
    const pushed = await fetch(`${origin}/api/v1/activity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        id: crypto.randomUUID(),
        oI: orderId,
        k: FIELDS.marking,
        t: 'XML_MODIFICATION',
        oV: JSON.stringify({ value: 'D-DB', CaptureDate: now }),
        c: now,
      }),
    });
    expect(pushed.status).toBe(200);

    // The tablet heals by itself: both lost values are on the server again, the colleague's stays.
    await expect.poll(() => value(FIELDS.tare)).toBe('22500');
    await expect.poll(() => value(FIELDS.axleLoad)).toBe('22');
    expect(await value(FIELDS.marking)).toBe('D-DB');
    // And it shows what the server holds, with nothing waiting.
    await expect.poll(() => page.locator(`[data-key="${FIELDS.marking}"]`).inputValue()).toBe('D-DB');
    await expect.poll(() => page.locator(`[data-key="${FIELDS.tare}"]`).inputValue()).toBe('22500');
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-unsent')).toBe('0');
    await context.close();
  });
});
