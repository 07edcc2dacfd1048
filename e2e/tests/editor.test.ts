import { checkDigit, formatVehicleNumber } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signIn } from '../support/browser.ts';
import { createOrderViaApi, serverValue } from '../support/orders.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const W_IN = '$.Body.Wagen.technicalWaggonIncoming';
const W_OUT = '$.Body.Wagen.technicalWaggonOutgoing';
const WHEELSET = (i: number) => `${W_OUT}.Understructure.WheelsetCollection.Wheelset[${i}]`;

const wheelsetNumber = (i: number) => {
  const first11 = `4${String(3_000_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

function createWagonOrder(): Promise<string> {
  return createOrderViaApi({
    type: 'WAGON',
    maintenanceNumber: '21 81 2471 217-3',
    wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i) })) },
  });
}

async function openOrder(page: Page, orderId: string, tab = 'basedata', username = 'staff') {
  await page.goto('/login');
  await signIn(page, username);
  await page.getByTestId('menu').waitFor();
  await page.goto(`/orders/wagon/${orderId}/${tab}`);
  await page.getByTestId('order-footer').waitFor();
}

const field = (page: Page, key: string) => page.locator(`[data-key="${key}"]`);

/** Types a value and leaves the field, which saves it. */
async function enter(page: Page, key: string, text: string) {
  const input = field(page, key);
  await input.fill(text);
  await input.press('Tab');
}

const progress = (page: Page, tab: string) =>
  page.getByTestId(`progress-${tab}`).getAttribute('data-percent').then(Number);

/** The order's rows on this device holding `text` as the field's value (IndexedDB, read by the page). */
const storedRowsOf = (page: Page, orderId: string, key: string, text: string) =>
  page.evaluate(
    ([orderId, key, text]) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const rows = open.result.transaction('orderResults').objectStore('orderResults').index('orderId');
          const read = rows.getAll(orderId);
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            const found = (read.result as { key: string; outputValue: string }[]).filter(
              (row) => row.key === key && row.outputValue.includes(JSON.stringify(text)),
            );
            open.result.close();
            resolve(found.length);
          };
        };
      }),
    [orderId, key, text] as const,
  );

describe('order editor', () => {
  it('fills base data: numbers are normalised or refused, progress moves, undo restores, values survive a reload', async () => {
    const orderId = await createWagonOrder();
    const context = await newContext(browser);
    const page = await context.newPage();
    await openOrder(page, orderId);
    await expect(page.getByTestId('toolbar-title').textContent()).resolves.toContain('Stammdaten');
    // The field labels load with the editor; a language switch there loads them in the new language.
    await page.getByTestId('language-select').click();
    await page.getByTestId('language-en').click();
    await expect.poll(() => page.getByTestId('order-tab-basedata').textContent()).toContain('Base data');
    await expect.poll(() => page.getByTestId('row-Eigengewicht').textContent()).toContain('Tare weight');
    await page.getByTestId('language-select').click();
    await page.getByTestId('language-de').click();
    await expect.poll(() => page.getByTestId('row-Eigengewicht').textContent()).toContain('Eigengewicht');
    // The creation data arrive with the first pull after opening.
    await expect.poll(() => field(page, `${W_IN}.Waggonnummer`).inputValue()).toBe('21 81 2471 217-3');
    const before = await progress(page, 'basedata');

    // A number shows as the language writes it (stored with a dot); letters are refused and the previous value comes
    // back with a word why.
    await enter(page, `${W_OUT}.AllowableAxleLoad`, '22.5');
    await expect.poll(() => field(page, `${W_OUT}.AllowableAxleLoad`).inputValue()).toBe('22,5');
    await page.getByTestId('language-select').click();
    await page.getByTestId('language-en').click();
    await expect.poll(() => field(page, `${W_OUT}.AllowableAxleLoad`).inputValue()).toBe('22.5');
    await page.getByTestId('language-select').click();
    await page.getByTestId('language-de').click();
    await expect.poll(() => field(page, `${W_OUT}.AllowableAxleLoad`).inputValue()).toBe('22,5');
    await enter(page, `${W_OUT}.AllowableAxleLoad`, '2x5');
    await expect.poll(() => field(page, `${W_OUT}.AllowableAxleLoad`).inputValue()).toBe('22,5');
    await page.getByText('Nur Ziffern, Komma und Punkt').first().waitFor();
    await expect.poll(() => progress(page, 'basedata')).toBeGreaterThan(before);

    // The workshop keeps a protocol: who changed the value shows under the label.
    await expect
      .poll(() => page.getByTestId('row-AllowableAxleLoad').getByTestId('last-modifier').textContent())
      .toContain('Schlosser');

    // An option from its value list, and an extra entry typed and taken with TAB where the list allows it.
    const temperature = field(page, `${W_OUT}.TemperaturbereichgemaessTSI`);
    await temperature.click();
    await page.getByRole('option', { name: /T2/ }).click();
    await expect.poll(() => temperature.inputValue()).toContain('T2');
    const level = field(page, `${W_OUT}.ExecutedMaintenanceLevel`);
    await level.fill('G 4.7 Sonder');
    await page.getByText('mit TAB einen neuen Eintrag', { exact: false }).first().waitFor();
    await level.press('Tab');
    await expect.poll(() => level.inputValue()).toBe('G 4.7 Sonder');

    // A wrong wagon number is refused with the check-digit message and not saved.
    await enter(page, `${W_OUT}.Waggonnummer`, '21 81 2471 217-4');
    await page.getByText('Prüfziffer', { exact: false }).first().waitFor();

    await enter(page, `${W_OUT}.Halterkurzkennzeichen`, 'D-DB');
    await expect.poll(() => field(page, `${W_OUT}.Halterkurzkennzeichen`).inputValue()).toBe('D-DB');
    await page.getByTestId('undo').click();
    await expect.poll(() => field(page, `${W_OUT}.Halterkurzkennzeichen`).inputValue()).toBe('');

    // More than two axles: the bogie list replaces the base running gear.
    await enter(page, `${W_OUT}.AnzahlAchsen`, '4');
    await page.getByTestId('chapter-bogies').waitFor();
    await page.getByTestId('entry-add-PositionDrehgestell').click();
    await page.getByTestId('entry-add-option-2').click();
    await page.getByTestId('entry-2').waitFor();
    await expect.poll(() => field(page, `${W_OUT}.AnzahlDrehgestelle`).inputValue()).toBe('1');
    // The position names the bogie: emptying it is refused and the value stays.
    const position = page.locator('[data-key$="BogieCollection.Bogie[0].PositionDrehgestell"]');
    await position.click();
    await position.press('Control+a');
    await position.press('Backspace');
    await position.press('Tab');
    await page.getByText('darf nicht leer sein', { exact: false }).first().waitFor();
    await expect.poll(() => position.inputValue()).toBe('2');

    await page.getByTestId('sync-now').click();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-unsent')).toBe('0');
    await expect.poll(() => page.getByTestId('sync-time').getAttribute('data-in-sync')).toBe('true');
    await page.reload();
    await page.getByTestId('order-footer').waitFor();
    await expect.poll(() => field(page, `${W_OUT}.AllowableAxleLoad`).inputValue()).toBe('22,5');
    await expect.poll(() => field(page, `${W_OUT}.ExecutedMaintenanceLevel`).inputValue()).toBe('G 4.7 Sonder');
    await expect(page.getByTestId('entry-2').isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('computes SR from AR and both flange thicknesses in a wheelset tab, and takes over incoming values', async () => {
    const orderId = await createWagonOrder();
    const context = await newContext(browser);
    const page = await context.newPage();
    await openOrder(page, orderId, 'wheelsets');
    await page.getByTestId('entry-summary').waitFor();
    await expect.poll(() => page.getByTestId('wheelsets-out').locator('[role="button"]').count()).toBe(4);
    await page.getByTestId('order-tab-wheelsets-2').click();
    await expect.poll(() => page.getByTestId('toolbar-title').textContent()).toContain('Radsatz 2');
    await expect
      .poll(() => field(page, `${WHEELSET(1)}.Wheelsetnumber`).inputValue())
      .toBe(formatVehicleNumber(wheelsetNumber(1)));
    await enter(page, `${WHEELSET(1)}.ArDimension`, '1360');
    await enter(page, `${WHEELSET(1)}.Wheels.Wheel[0].Sd`, '32,5');
    // A flange thickness outside the in-service limits is kept, with a warning naming the limit.
    await enter(page, `${WHEELSET(1)}.Wheels.Wheel[1].Sd`, '34');
    await page.getByText('Außerhalb des Grenzmaßes 22–33 mm', { exact: false }).first().waitFor();
    await enter(page, `${WHEELSET(1)}.Wheels.Wheel[1].Sd`, '31.8');
    await expect.poll(() => page.getByText('Außerhalb des Grenzmaßes', { exact: false }).count()).toBe(0);
    // SR in the language's form; entering its inputs in order gave no warning (e2e/tests/calculation-warning.test.ts).
    await expect.poll(() => field(page, `${WHEELSET(1)}.SrMass`).inputValue()).toBe('1424,300');
    await expect(page.getByText('Fehlende Berechnungsparameter', { exact: false }).count()).resolves.toBe(0);

    // The incoming wheelset at position 2 does not exist yet: its first value creates it.
    const incoming = '$.Body.Wagen.technicalWaggonIncoming.Understructure.WheelsetCollection.Wheelset[1]';
    await enter(page, `${incoming}.OwnerMark`, 'DB');
    await enter(page, `${incoming}.CaseType`, 'ZL 160');
    await page.getByTestId('take-over').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => field(page, `${WHEELSET(1)}.OwnerMark`).inputValue()).toBe('DB');
    await expect.poll(() => field(page, `${WHEELSET(1)}.CaseType`).inputValue()).toBe('ZL 160');
    await context.close();
  });

  it('load limit grid: the type comes first, then only its letters show; the CM grid kind switches its fields', async () => {
    const orderId = await createWagonOrder();
    const context = await newContext(browser);
    const page = await context.newPage();
    await openOrder(page, orderId, 'loadLimitGrid');
    // No type on the incoming side yet: the editor says so and shows every letter.
    await page.getByTestId('tab-filter-missing').waitFor();
    await expect(page.getByTestId('tab-filter-missing').textContent()).resolves.toContain('Eingangsdaten');
    const letter = (key: string) => field(page, `${W_OUT}.LoadLimitGrid.${key}`);
    await expect.poll(() => letter('E5100').count()).toBe(1);
    const type = field(page, `${W_IN}.LoadLimitGrid.Lastgrenzenrastertyp`);
    await type.click();
    await page.getByRole('option', { name: /^A-B1-B2-C2-C3-C4$/ }).click();
    await page.getByTestId('tab-filter-missing').waitFor({ state: 'detached' });
    await expect.poll(() => letter('E5100').count()).toBe(0);
    await expect.poll(() => letter('C4120').count()).toBe(1);
    // Switching the filter off shows every letter again.
    await page.getByTestId('tab-filter').click();
    await expect.poll(() => letter('E5100').count()).toBe(1);

    await expect.poll(() => letter('CM2').count()).toBe(0);
    await page.locator(`[data-key="${W_OUT}.LoadLimitGrid.CmRasterArt"]`).getByTestId('choice-CMD').click();
    await expect.poll(() => letter('CMD2').count()).toBe(1);
    await expect(letter('CM2').count()).resolves.toBe(0);
    await context.close();
  });

  it('stores edits on the save worker, and on the page itself when the worker cannot load', async () => {
    const orderId = await createWagonOrder();
    const key = `${W_OUT}.Halterkurzkennzeichen`;
    const storedRows = (page: Page, text: string) => storedRowsOf(page, orderId, key, text);

    // As the editor opens it starts the worker, which stores the edit.
    const withWorker = await newContext(browser);
    const page = await withWorker.newPage();
    const pageErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await openOrder(page, orderId);
    await expect.poll(() => page.workers().some((worker) => worker.url().includes('save-worker'))).toBe(true);
    await enter(page, key, 'D-WRK');
    await expect.poll(() => storedRows(page, 'D-WRK')).toBe(1);
    await expect.poll(() => field(page, key).inputValue()).toBe('D-WRK');
    await expect(page.getByText('Fehler beim Speichern').count()).resolves.toBe(0);
    // Stored by the worker, not by the page's fallback.
    expect(pageErrors.filter((text) => text.includes('save worker'))).toEqual([]);
    await withWorker.close();

    // The worker's script cannot be loaded (here: refused; in the field: a damaged cache): the page stores the edits
    // itself, nothing is lost and no error is shown.
    const withoutWorker = await browser.newContext({
      baseURL: baseUrl(),
      locale: 'de-DE',
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    });
    await withoutWorker.route('**/save-worker-*.js', (route) => route.abort());
    const refused = await withoutWorker.newPage();
    const errors: string[] = [];
    refused.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await openOrder(refused, orderId);
    await expect.poll(() => errors.some((text) => text.includes('save worker failed'))).toBe(true);
    await enter(refused, key, 'D-PAGE');
    await expect.poll(() => storedRows(refused, 'D-PAGE')).toBe(1);
    await expect.poll(() => field(refused, key).inputValue()).toBe('D-PAGE');
    await enter(refused, key, 'D-PAGE2');
    await expect.poll(() => storedRows(refused, 'D-PAGE2')).toBe(1);
    await refused.reload();
    await refused.getByTestId('order-footer').waitFor();
    await expect.poll(() => field(refused, key).inputValue()).toBe('D-PAGE2');
    await expect(refused.getByText('Fehler beim Speichern').count()).resolves.toBe(0);
    await withoutWorker.close();
  });

  it('stores, at the next start, an edit the page showed but had not stored yet when it was reloaded', async () => {
    const orderId = await createWagonOrder();
    const key = `${W_OUT}.Halterkurzkennzeichen`;
    const context = await browser.newContext({
      baseURL: baseUrl(),
      locale: 'de-DE',
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    });
    // The save worker's script is slow to come (a busy tablet): never answered here, so the edit waits for it.
    let asked = 0;
    await context.route('**/save-worker-*.js', () => void asked++);
    const page = await context.newPage();
    await openOrder(page, orderId);
    await expect.poll(() => asked).toBeGreaterThan(0);
    await enter(page, key, 'D-JRNL');
    await expect.poll(() => field(page, key).inputValue()).toBe('D-JRNL');
    // Shown, and not in IndexedDB: a reload now would have lost it.
    await expect(storedRowsOf(page, orderId, key, 'D-JRNL')).resolves.toBe(0);
    await page.reload();
    await page.getByTestId('order-footer').waitFor();
    // Stored by the page itself from the journal (the worker is still held), shown, and sent.
    await expect.poll(() => storedRowsOf(page, orderId, key, 'D-JRNL')).toBe(1);
    await expect.poll(() => field(page, key).inputValue()).toBe('D-JRNL');
    await page.getByTestId('sync-now').click();
    await expect.poll(() => serverValue(orderId, key)).toBe('D-JRNL');
    const journal = () =>
      page.evaluate(() => Object.keys(localStorage).filter((name) => name.startsWith('vers-unstored:')));
    await expect.poll(journal).toEqual([]);

    // Without a reload: the worker still never answers, and after a while the page stores the edit itself.
    await enter(page, key, 'D-LATE');
    await expect.poll(() => storedRowsOf(page, orderId, key, 'D-LATE'), { timeout: 60_000 }).toBe(1);
    await page.getByTestId('sync-now').click();
    await expect.poll(() => serverValue(orderId, key)).toBe('D-LATE');
    await expect.poll(journal).toEqual([]);
    await context.close();
  });

  it('two browsers editing the same order converge', async () => {
    const orderId = await createWagonOrder();
    const first = await newContext(browser);
    const second = await newContext(browser);
    const a = await first.newPage();
    const b = await second.newPage();
    await openOrder(a, orderId);
    await openOrder(b, orderId);
    await enter(a, `${W_OUT}.Halterkurzkennzeichen`, 'D-VTG');
    await enter(b, `${W_IN}.LetztesLadegut`, 'Getreide');
    await a.getByTestId('sync-now').click();
    await b.getByTestId('sync-now').click();
    await a.getByTestId('sync-now').click();
    for (const page of [a, b]) {
      await expect.poll(() => field(page, `${W_OUT}.Halterkurzkennzeichen`).inputValue()).toBe('D-VTG');
      await expect.poll(() => field(page, `${W_IN}.LetztesLadegut`).inputValue()).toBe('Getreide');
    }
    await first.close();
    await second.close();
  });
});
