import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Order, formatVehicleNumber } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';
import { WAGON_RELEASE_ENTRIES, apiToken, pushViaApi, signOffViaApi } from '../support/orders.ts';
import { baseUrl } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const repoRoot = new URL('../../', import.meta.url);
const example = (name: string) => readFileSync(new URL(`docs/xml/${name}`, repoRoot), 'utf8');
/** The wagon template's own wheelsets (docs/xml/example-wagon.xml), each with a template of its own. */
const WHEELSETS = ['318001234513', '318001234521', '318001234539', '318001234547'];
const WAGON = '218124712173';

const files = mkdtempSync(path.join(tmpdir(), 'vers-e2e-xml-'));
const file = (name: string, text: string) => {
  const where = path.join(files, name);
  writeFileSync(where, text);
  return where;
};

/** A downloaded PDF as text (poppler's pdftotext). */
const pdfText = (where: string) => execFileSync('pdftotext', ['-layout', where, '-'], { encoding: 'utf8' });

async function generateAndDownload(page: Page, language: string): Promise<string> {
  await page.getByTestId('documents-type-RELEASE_TO_SERVICE').check();
  await page.getByTestId('documents-language').click();
  await page.getByTestId(`documents-language-${language}`).click();
  await page.getByTestId('documents-generate').click();
  const row = page.locator(`[data-testid="document-row"][data-type="RELEASE_TO_SERVICE"]`).filter({
    hasText: `_${language}.pdf`,
  });
  // Listed at once as in generation, then available when the server's job is done (the list is asked every 2 s).
  await row.waitFor();
  await expect.poll(() => row.getAttribute('data-status')).toBe('AVAILABLE');
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('document-download').click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`_release_to_service_${language}\\.pdf$`));
  const where = path.join(files, download.suggestedFilename());
  await download.saveAs(where);
  return pdfText(where);
}

describe('documents', () => {
  it('starts a wagon order from a template with four wheelset templates, then hands out its release to service in bg and de', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('menu').waitFor();
    await page.goto('/orders/add');

    // A wheelset template where a wagon is expected is refused with the reason, and the input is cleared.
    await page.getByTestId('order-import').setInputFiles(file('wheelset.xml', example('example-wheelset.xml')));
    await expect.poll(() => page.getByTestId('order-import-state').getAttribute('data-state')).toBe('invalid');
    await expect(page.getByTestId('order-import-message').textContent()).resolves.toContain('Unerwarteter Auftragstyp');
    await expect(page.getByTestId('order-import').inputValue()).resolves.toBe('');

    // The wagon template: its number and its four wheelsets fill the form.
    await page.getByTestId('order-import').setInputFiles(file('wagon.xml', example('example-wagon.xml')));
    await expect.poll(() => page.getByTestId('order-import-state').getAttribute('data-state')).toBe('valid');
    await expect(page.getByTestId('order-number').inputValue()).resolves.toBe(formatVehicleNumber(WAGON));
    for (const [index, number] of WHEELSETS.entries()) {
      await expect(page.getByTestId(`wheelset-number-${index}`).inputValue()).resolves.toBe(
        formatVehicleNumber(number),
      );
    }
    // Each row takes its own wheelset template, checked on its own.
    for (const [index, number] of WHEELSETS.entries()) {
      const template = example('example-wheelset.xml').replace('318001234513', number);
      await page.getByTestId(`wheelset-import-${index}`).setInputFiles(file(`wheelset-${index}.xml`, template));
    }
    for (const index of WHEELSETS.keys()) {
      await expect
        .poll(() => page.getByTestId(`wheelset-import-${index}-state`).getAttribute('data-state'))
        .toBe('valid');
    }
    await page.getByTestId('order-save').click();
    await page.waitForURL(/\/orders$/);

    // The order holds the template's incoming values.
    const token = await apiToken('staff');
    const orders = (await (
      await fetch(`${baseUrl()}/api/v1/orders?orderNumber=${WAGON}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as Order[];
    const order = orders.find((candidate) => candidate.importedDate !== null);
    expect(order).toBeDefined();

    // A release to service is handed out only once complete and signed off (issue 21): the workshop's entries,
    // and wagon QA's sign-off "released to service".
    await pushViaApi(order!.id, WAGON_RELEASE_ENTRIES);
    await signOffViaApi(order!.id, { meaning: 'RELEASED_TO_SERVICE', status: 'DONE' });

    await page.goto(`/orders/wagon/${order!.id}/basedata`);
    await page.getByTestId('open-documents').click();
    await page.waitForURL(new RegExp(`/assets/${order!.id}/wagon/1$`));
    await page.getByTestId('documents-page').waitFor();

    const bulgarian = await generateAndDownload(page, 'bg');
    expect(bulgarian).toContain(order!.number);
    expect(bulgarian).toContain(formatVehicleNumber(WAGON));
    expect(bulgarian).toMatch(/[А-Яа-я]{4,}/); // Cyrillic text, not boxes
    const german = await generateAndDownload(page, 'de');
    expect(german).toContain('Freigabe');
    expect(german).toMatch(/Unterzeichnet von\s+Waltraud Wagenprüfer/);
    expect(german).toContain(formatVehicleNumber(WHEELSETS[3]!));
    await context.close();
  });
});
