import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const rows = (page: Page) => page.getByTestId('default-options-table').locator('tbody tr');

async function rowsPerPage(page: Page, label: string, table = 'default-options-pagination') {
  await page.getByTestId(table).getByRole('combobox').click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** Reads one list from IndexedDB `versdb` with the browser's own API, as the app would offline. */
function readLocalList(page: Page, key: string, lang: string) {
  return page.evaluate(
    ({ key, lang }) =>
      new Promise<{ version: number; stores: string[]; values: string[] }>((resolve, reject) => {
        const request = indexedDB.open('versdb');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const get = db.transaction('defaultOptions').objectStore('defaultOptions').get([key, lang]);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            const list = get.result as { values: { value: string }[] } | undefined;
            resolve({
              version: db.version,
              stores: [...db.objectStoreNames],
              values: list?.values.map((v) => v.value) ?? [],
            });
            db.close();
          };
        };
      }),
    { key, lang },
  );
}

describe('value lists', () => {
  it('a system admin pages, searches and filters the table', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'versadmin');
    await page.getByTestId('menu-defaultOptions').click();
    await page.getByTestId('default-option-row-ListAuftraggeber').waitFor();
    expect(await rows(page).count()).toBe(10); // default page size
    await rowsPerPage(page, '5');
    expect(await rows(page).count()).toBe(5);
    await rowsPerPage(page, 'Alle');
    const all = await rows(page).count();
    expect(all).toBeGreaterThan(20);
    await page.getByTestId('default-options-search').fill('puffer');
    await expect.poll(() => rows(page).count()).toBeLessThan(all);
    const keys = await rows(page).locator('td:first-child').allTextContents();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.toLowerCase().includes('puffer'))).toBe(true);
    await page.getByTestId('default-options-search').fill('');
    await page.getByTestId('default-options-type').click();
    // Every superstructure type of ListAufbautyp, in German alphabetical order, not only the types some list carries.
    await expect
      .poll(() => page.getByRole('option').allTextContents())
      .toEqual(['Alle', 'Autotransportwagen', 'Flachwagen', 'Gedeckter Wagen', 'Schüttgut', 'Staubgut', 'Tank']);
    await page.getByRole('option', { name: 'Tank', exact: true }).click();
    await expect
      .poll(() => rows(page).locator('td:first-child').allTextContents())
      .toEqual(['ListTankcodierung', 'ListTankpruefungsart']);
    // A type no list carries yet: the table says so instead of showing nothing.
    await page.getByTestId('default-options-type').click();
    await page.getByRole('option', { name: 'Flachwagen', exact: true }).click();
    await expect.poll(() => rows(page).allTextContents()).toEqual(['Keine Wertelisten gefunden.']);
    await context.close();
  });

  it('shows a list in the order of its texts in the language, with ČD Cargo among the Cs', async () => {
    const context = await newContext(browser, 'cs-CZ');
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'versadmin');
    await page.getByTestId('menu-defaultOptions').click();
    await page.getByTestId('default-option-row-ListAuftraggeber').click();
    await rowsPerPage(page, 'Vše', 'values-pagination');
    const texts = page.getByTestId('values-table').locator('tbody tr td:nth-child(2)');
    await expect.poll(() => texts.allTextContents()).toContain('ČD Cargo, a.s.');
    const shown = await texts.allTextContents();
    // Czech: Č is its own letter after C and before D; never last, as by code point.
    expect(shown.indexOf('ČD Cargo, a.s.')).toBe(shown.indexOf('DB Cargo AG') - 1);
    expect(shown).toEqual([...shown].sort(new Intl.Collator('cs', { numeric: true }).compare));
    await context.close();
  });

  it('a system admin adds a value, and a workshop user finds it in IndexedDB after the next load, offline', async () => {
    const admin = await newContext(browser);
    const page = await admin.newPage();
    await page.goto('/login');
    await signIn(page, 'versadmin');
    await page.getByTestId('menu-defaultOptions').click();
    await page.getByTestId('default-option-row-ListAuftraggeber').click();
    await expect(page.getByTestId('default-option-title').textContent()).resolves.toBe('Auftraggeber');
    await page.getByTestId('value-add').click();
    await page.getByTestId('value-key').fill('RAILPOOL');
    await expect(page.getByTestId('value-save').isDisabled()).resolves.toBe(true); // display text missing
    await page.getByTestId('value-text').fill('Railpool GmbH');
    await page.getByTestId('value-save').click();
    await page.getByTestId('values-save').click();
    await page.getByRole('alert').filter({ hasText: 'Erfolgreich gespeichert' }).waitFor();
    await page.getByTestId('value-row-RAILPOOL').waitFor();
    await admin.close();

    const worker = await newContext(browser);
    const workerPage = await worker.newPage();
    await workerPage.goto('/login');
    await signIn(workerPage, 'staff');
    await workerPage.getByTestId('home-welcome').waitFor();
    await expect
      .poll(async () => (await readLocalList(workerPage, 'ListAuftraggeber', 'de')).values)
      .toContain('RAILPOOL');
    await worker.setOffline(true);
    const local = await readLocalList(workerPage, 'ListAuftraggeber', 'de');
    // The spec's version 2, plus the orders' search index of issue 25 (docs/decisions.md: the device's order search)
    // and the pictures' capture-date index of issue 19 (version 4).
    expect(local.version).toBe(4);
    expect(local.stores.sort()).toEqual(['defaultOptions', 'orderImages', 'orderResults', 'orders']);
    expect(local.values).toContain('RAILPOOL');
    await worker.close();
  });

  it('marks existing values for deletion until save, removes new ones at once, and keeps one value', async () => {
    const context = await newContext(browser, 'en-GB');
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'versadmin');
    await page.getByTestId('menu-defaultOptions').click();
    await page.getByTestId('default-options-search').fill('ListSterne');
    await page.getByTestId('default-option-row-ListSterne').click();
    await page.getByTestId('values-table').waitFor();
    const values = await page.getByTestId('values-table').locator('tbody tr td:first-child').allTextContents();
    // A new row disappears right after the confirmation.
    await page.getByTestId('value-add').click();
    await page.getByTestId('value-key').fill('NEW');
    await page.getByTestId('value-text').fill('New one');
    await page.getByTestId('value-save').click();
    await page.getByTestId('value-delete-NEW').click();
    await page.getByTestId('confirm-ok').click();
    expect(await page.getByTestId('value-row-NEW').count()).toBe(0);
    // Marking every existing value blocks the save with the spec's message.
    for (const value of values) await page.getByTestId(`value-delete-${value}`).click();
    await page.getByTestId('values-save').click();
    await page.getByRole('alert').filter({ hasText: 'could not be saved' }).waitFor();
    // Unmark all but the first: saving deletes exactly the marked ones.
    for (const value of values.slice(1)) await page.getByTestId(`value-delete-${value}`).click();
    await page.getByTestId('values-save').click();
    await expect
      .poll(() => page.getByTestId('values-table').locator('tbody tr td:first-child').allTextContents())
      .toEqual(values.slice(1));
    await context.close();
  });
});
