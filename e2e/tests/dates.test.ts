import { CATALOGUE, LANGUAGE_STORAGE_KEY, ORDER_ROOTS, STORAGE_KEYS, checkDigit } from '@vers/domain';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, signIn } from '../support/browser.ts';
import { dateField, typeDate } from '../support/dates.ts';
import { createOrderViaApi, serverValue } from '../support/orders.ts';

/*
 * Dates as the UI language writes them (issue 20): whatever the device's locale (here en-US, whose native date input
 * shows mm/dd/yyyy), a date field shows and takes DD.MM.YY in German and DD/MM/YY in English, typed by keyboard or
 * picked in the calendar, and stores ISO. On a phone and a desktop, light and dark; a screenshot of each open
 * calendar goes to e2e/artifacts/dates for a person to look at.
 */

let browser: Browser;
const SHOTS = path.resolve('e2e/artifacts/dates');
const OVERHAUL = `${ORDER_ROOTS.WAGON.out}.OverhaulDate`;

const wheelsetNumber = (i: number) => {
  const first11 = `4${String(7_200_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

interface Setting {
  language: 'de' | 'en';
  width: 412 | 1280;
  dark: boolean;
}

/** A device set to US English, the app in `language`, light or dark. */
async function device({ language, width, dark }: Setting): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale: 'en-US',
    viewport: width === 412 ? { width: 412, height: 915 } : { width: 1280, height: 800 },
  });
  await context.addInitScript(
    ([languageKey, language, darkKey, dark]) => {
      localStorage.setItem(languageKey, language);
      localStorage.setItem(darkKey, dark);
    },
    [LANGUAGE_STORAGE_KEY, language, STORAGE_KEYS.darkMode, String(dark)] as const,
  );
  return context;
}

/** Signed in (on a phone the menu stays in its drawer) and showing the order's tab. */
async function openOrder(context: BrowserContext, width: number, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, 'staff');
  await page.getByTestId(width < 900 ? 'drawer-open' : 'menu').waitFor();
  await page.goto(url);
  await page.getByTestId('order-footer').waitFor();
  return page;
}

const SETTINGS: Setting[] = (['de', 'en'] as const).flatMap((language) =>
  ([1280, 412] as const).flatMap((width) => [false, true].map((dark) => ({ language, width, dark }))),
);

describe('a date field on a US-English device', () => {
  it.each(SETTINGS.map((s) => [`${s.language} ${s.width} px ${s.dark ? 'dark' : 'light'}`, s] as const))(
    '%s: typed and picked in the language format, kept over a reload, stored as ISO',
    async (name, setting) => {
      const orderId = await createOrderViaApi({
        type: 'WAGON',
        maintenanceNumber: '21 81 2471 217-3',
        wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i) })) },
      });
      const context = await device(setting);
      const page = await openOrder(context, setting.width, `/orders/wagon/${orderId}/basedata`);
      const field = dateField(page, OVERHAUL);
      const [typed, shown, picked] =
        setting.language === 'de' ? ['24.12.25', '24.12.25', '15.12.25'] : ['24/12/25', '24/12/25', '15/12/25'];

      await typeDate(page, field, typed, setting.width === 412 ? 'onScreen' : 'keys');
      await expect.poll(field.shown).toBe(shown);
      await page.reload();
      await page.getByTestId('order-footer').waitFor();
      await expect.poll(field.shown).toBe(shown);
      await page.getByTestId('sync-now').click();
      await expect.poll(() => serverValue(orderId, OVERHAUL)).toBe('2025-12-24');

      await field.openButton.click();
      const calendar = page.getByRole('dialog');
      await calendar.getByRole('gridcell', { name: '24' }).waitFor();
      // Until it has grown in: a tap during its transition can miss the day. Settled, not all: an animation that a
      // re-render cancels rejects its `finished` (AbortError, a CI run), and is over all the same.
      await calendar.evaluate((el) => Promise.allSettled(el.getAnimations({ subtree: true }).map((a) => a.finished)));
      await page.screenshot({ path: path.join(SHOTS, `${name.replaceAll(' ', '-')}.png`) });
      await calendar.getByRole('gridcell', { name: '15' }).click();
      await calendar.waitFor({ state: 'detached' });
      await expect.poll(field.shown).toBe(picked);
      await page.getByTestId('sync-now').click();
      await expect.poll(() => serverValue(orderId, OVERHAUL)).toBe('2025-12-15');
      // The field's history reads its values as the field shows them.
      await page.getByTestId('row-OverhaulDate').getByTestId('history-open').click();
      await expect.poll(() => page.getByTestId('history-list').textContent()).toContain(picked);
      await expect(page.getByTestId('history-list').textContent()).resolves.toContain(shown);
      await expect(page.getByTestId('history-list').textContent()).resolves.not.toContain('2025-12');
      await page.getByTestId('history-close').click();
      await context.close();
    },
  );
});

describe('a month field and a slip', () => {
  it('a month is typed as MM.YYYY and stored as YYYY-MM; a date left unfinished or that does not exist is refused', async () => {
    const first11 = `4${String(7_300_000_000).slice(-10)}`;
    const orderId = await createOrderViaApi({
      type: 'WHEELSET',
      maintenanceNumber: `${first11}${checkDigit(first11)}`,
    });
    const context = await device({ language: 'de', width: 1280, dark: false });
    const tab = CATALOGUE.WHEELSET[0]!.id;
    const page = await openOrder(context, 1280, `/orders/wheelset/${orderId}/${tab}`);
    const stamped = `${ORDER_ROOTS.WHEELSET.out}.StampedMountingDate`;
    const month = dateField(page, stamped);
    await typeDate(page, month, '11.2026', 'keys', 'Enter');
    await expect.poll(month.shown).toBe('11.2026');
    await page.getByTestId('sync-now').click();
    await expect.poll(() => serverValue(orderId, stamped)).toBe('2026-11');
    // The month picker: months of the year, opened on the stored month; closed without a pick, nothing changes.
    await month.openButton.click();
    const calendar = page.getByRole('dialog');
    await calendar.getByText('2026').first().waitFor();
    await calendar.evaluate((el) => Promise.allSettled(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await page.screenshot({ path: path.join(SHOTS, 'de-1280-px-light-month.png') });
    await page.keyboard.press('Escape');
    await calendar.waitFor({ state: 'detached' });
    await expect.poll(month.shown).toBe('11.2026');

    const mounted = `${ORDER_ROOTS.WHEELSET.out}.MountDate`;
    const day = dateField(page, mounted);
    // Empty and tapped: the parts to type show in the language's letters.
    await day.first.click();
    await expect.poll(day.parts).toBe('TT.MM.JJ');
    await page.screenshot({ path: path.join(SHOTS, 'de-1280-px-light-empty.png') });
    // Only the day typed: nothing is saved, and the field does not keep the part as if it were.
    await typeDate(page, day, '24');
    await page.getByText('Kein vollständiges, gültiges Datum').waitFor();
    await expect.poll(day.shown).toBe('');
    await typeDate(page, day, '01.02.26');
    await expect.poll(day.shown).toBe('01.02.26');
    // 31 April: every part typed, no such day.
    await typeDate(page, day, '31.04.26');
    await page.getByText('Kein vollständiges, gültiges Datum').waitFor();
    await expect.poll(day.shown).toBe('01.02.26');
    await page.reload();
    await page.getByTestId('order-footer').waitFor();
    await expect.poll(day.shown).toBe('01.02.26');
    await expect.poll(month.shown).toBe('11.2026');
    await page.getByTestId('sync-now').click();
    await expect.poll(() => serverValue(orderId, mounted)).toBe('2026-02-01');
    await context.close();
  });
});
