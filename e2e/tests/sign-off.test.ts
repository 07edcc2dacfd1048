import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkDigit, formatSignOffCode } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, serviceWorkerReady } from '../support/browser.ts';
import { WAGON_RELEASE_ENTRIES, apiToken, createOrderViaApi, openWagonOrder, pushViaApi } from '../support/orders.ts';
import { E2E_PASSWORD } from '../support/server.ts';

let browser: Browser;
const files = mkdtempSync(path.join(tmpdir(), 'vers-sign-off-'));
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const wheelset = (i: number) => {
  const first11 = `4${String(3_000_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};
const MARKING = '$.Body.Wagen.technicalWaggonOutgoing.Halterkurzkennzeichen';

function createOrder(): Promise<string> {
  return createOrderViaApi({
    type: 'WAGON',
    maintenanceNumber: '51 80 0843 001-0',
    wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelset(i) })) },
  });
}

const openOrder = openWagonOrder;

async function chooseDone(page: Page) {
  await page.getByTestId('status-change').click();
  await page.getByTestId('status-dialog').waitFor();
  await page.getByTestId('status-option-DONE').click();
  await page.getByTestId('sign-off-fields').waitFor();
}

async function setStatusViaApi(orderId: string, status: string) {
  const res = await fetch(`${baseUrl()}/api/v1/orders/${orderId}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await apiToken('werkadmin')}` },
    body: JSON.stringify({ status }),
  });
  expect(res.status).toBe(200);
}

describe('sign-off', () => {
  it('wagon QA signs an order done with the password; a wrong one is said in the dialog and changes nothing', async () => {
    const orderId = await createOrder();
    const context = await newContext(browser);
    const page = await context.newPage();
    await openOrder(page, 'wagonqa', orderId);
    await chooseDone(page);
    await expect(page.getByTestId('status-save').isDisabled()).resolves.toBe(true); // no password yet
    await page.getByTestId('sign-off-password').fill('Not-The-Password-1');
    await page.getByTestId('status-save').click();
    await expect.poll(() => page.getByText('Das Passwort ist nicht korrekt.').count()).toBe(1);
    await expect(page.getByTestId('order-status').textContent()).resolves.toBe('Neu');

    await page.getByTestId('sign-off-password').fill(E2E_PASSWORD);
    await page.getByTestId('status-save').click();
    await page.getByTestId('order-read-only').waitFor();
    await expect(page.getByTestId('order-status').textContent()).resolves.toBe('Fertig');
    await context.close();
  });

  it('offline, the dialog says a sign-off needs the server, and nothing is sent or kept to send later', async () => {
    const orderId = await createOrder();
    const context = await newContext(browser);
    const page = await context.newPage();
    await openOrder(page, 'wagonqa', orderId);
    await serviceWorkerReady(page);
    await context.setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    await chooseDone(page);
    await page.getByTestId('sign-off-offline').waitFor();
    await expect(page.getByTestId('sign-off-password').count()).resolves.toBe(0);
    await expect(page.getByTestId('status-save').isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    // Nothing waits on the device either: the unsent count stays 0 when the network is back.
    await context.setOffline(false);
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
    await expect(page.getByTestId('sync-indicator').getAttribute('data-unsent')).resolves.toBe('0');
    await expect(page.getByTestId('order-status').textContent()).resolves.toBe('Neu');
    await context.close();
  });

  it('a release to service: refused with what is missing, signed on the documents page, printed with signer, meaning, hash and code, checked by its code', async () => {
    const orderId = await createOrder();
    const context = await newContext(browser, 'en-GB');
    const page = await context.newPage();
    await openOrder(page, 'wagonqa', orderId);
    await page.goto(`/assets/${orderId}/wagon`);
    await page.getByTestId('documents-page').waitFor();
    // Not signed: the generation is refused and names what the release still lacks.
    await page.getByTestId('documents-type-RELEASE_TO_SERVICE').check();
    await page.getByTestId('documents-generate').click();
    const error = page.getByTestId('documents-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toContain('Still missing:');
    await expect(page.getByTestId('sign-off-release').count()).resolves.toBe(0); // not done yet

    // The workshop enters the release's data; QA signs the order done, then the release on this page.
    await pushViaApi(orderId, { ...WAGON_RELEASE_ENTRIES, [MARKING]: 'D-GATX' });
    await page.goto(`/orders/wagon/${orderId}`);
    await page.getByTestId('order-footer').waitFor();
    await chooseDone(page);
    await page.getByTestId('sign-off-password').fill(E2E_PASSWORD);
    await page.getByTestId('status-save').click();
    await page.getByTestId('order-read-only').waitFor();
    await page.getByTestId('open-documents').click();
    await page.getByTestId('documents-page').waitFor();
    await page.getByTestId('sign-off-release').click();
    await page.getByTestId('sign-off-password').fill(E2E_PASSWORD);
    await page.getByTestId('sign-off-save').click();
    const release = page.locator('[data-testid="sign-off-row"][data-meaning="RELEASED_TO_SERVICE"]');
    await release.waitFor();
    await expect(release.getAttribute('data-superseded')).resolves.toBe('false');
    const codeText = (await release.getByTestId('sign-off-code').textContent()) ?? '';
    const code = codeText.replace(/^.*?([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3}).*$/, '$1');
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);

    await page.getByTestId('documents-type-RELEASE_TO_SERVICE').check();
    await page.getByTestId('documents-generate').click();
    const row = page.locator('[data-testid="document-row"][data-type="RELEASE_TO_SERVICE"]');
    await row.waitFor();
    await expect.poll(() => row.getAttribute('data-status')).toBe('AVAILABLE');
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('document-download').click()]);
    const where = path.join(files, download.suggestedFilename());
    await download.saveAs(where);
    const text = execFileSync('pdftotext', ['-layout', where, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/Signed by\s+Waltraud Wagenprüfer/);
    expect(text).toMatch(/Meaning\s+Released to service/);
    expect(text).toMatch(/Role\s+Wagon quality inspector/);
    expect(text).toMatch(/Signed at\s+\d\d\/\d\d\/\d{4} \d\d:\d\d UTC/);
    expect(text.replace(/\s+/g, ' ')).toMatch(/Content hash \(SHA-256\) (?:[0-9a-f]{8} ){7}[0-9a-f]{8}/);
    expect(text).toContain(code);
    expect(text).toMatch(/Entity in charge of maintenance \(ECM\)\s+ECM-DE-0815/);

    // A holder without an account checks the printed code: valid now.
    const holder = await newContext(browser, 'en-GB');
    const check = await holder.newPage();
    await check.goto('/check');
    await check.getByTestId('check-code').fill(code.toLowerCase());
    await check.getByTestId('check-submit').click();
    await expect.poll(() => check.getByTestId('check-result').getAttribute('data-state')).toBe('MATCHES');

    // Reopened and changed: the same code now says what changed.
    await setStatusViaApi(orderId, 'IN_WORK');
    await pushViaApi(orderId, { [MARKING]: 'D-VTGD' });
    await check.reload();
    await expect.poll(() => check.getByTestId('check-result').getAttribute('data-state')).toBe('CHANGED');
    await check.getByTestId('check-superseded').waitFor();
    const change = check.getByTestId('check-change');
    await expect(change.count()).resolves.toBe(1);
    await expect(change.textContent()).resolves.toMatch(/D-GATX.*D-VTGD/);
    expect(formatSignOffCode(code.replace(/-/g, ''))).toBe(code);
    await holder.close();
    await context.close();
  });
});
