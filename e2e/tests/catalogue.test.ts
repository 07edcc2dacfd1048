import {
  CATALOGUE,
  ORDER_ROOTS,
  type OrderType,
  type RowView,
  type TabDef,
  checkDigit,
  layoutTab,
  perEntrySummary,
} from '@vers/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';
import { createOrderViaApi } from '../support/orders.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function createOrder(type: OrderType): Promise<string> {
  const wheelset = (i: number) => `4${String(5_000_000_000 + i).slice(-10)}`;
  const withCheck = (first11: string) => `${first11}${checkDigit(first11)}`;
  return createOrderViaApi(
    type === 'WAGON'
      ? {
          type,
          maintenanceNumber: '51 80 0843 001-0',
          wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: withCheck(wheelset(i)) })) },
        }
      : { type, maintenanceNumber: withCheck(wheelset(9)) },
  );
}

/** A value a user would type into a text-like field of this kind. */
const typed: Partial<Record<RowView['field']['kind'], string>> = { string: 'E2E', double: '1', textarea: 'E2E' };

/**
 * The first typeable outgoing field of each chapter, as the catalogue lays the tab out for an empty order. A
 * repeated tab is looked at in one entry: one the order has, or the first one the picker adds (index 0 each side).
 */
function firstFields(type: OrderType, tab: TabDef, entry: string | undefined, added: boolean) {
  const values: Record<string, unknown> = {};
  if (tab.perEntry && entry) {
    // An added entry sits at index 0 on both sides; the wagon's first wheelset at index 0 of the outgoing side.
    const roots = added ? Object.values(ORDER_ROOTS[type]) : [ORDER_ROOTS[type].out];
    for (const root of roots) {
      values[`${root}.${tab.perEntry.path}[0].${tab.perEntry.differentiator.path}`] = { value: entry };
    }
  }
  const picked: { key: string; text: string }[] = [];
  for (const chapter of layoutTab(type, tab, values, entry).chapters) {
    const row = [...chapter.rows, ...(chapter.collection?.entries.flatMap((e) => e.rows) ?? [])].find(
      (candidate) => candidate.out && candidate.out.create.length === 0 && typed[candidate.field.kind],
    );
    if (row?.out) picked.push({ key: row.out.key, text: typed[row.field.kind]! });
  }
  return picked;
}

// One test per tab, on one signed-in page per order type: each is short, so a busy machine slows it without
// running into a test's time bound.
describe.each(['WAGON', 'WHEELSET'] as const)('every tab of a %s order', (type) => {
  let orderId: string;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    orderId = await createOrder(type);
    context = await newContext(browser);
    page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('menu').waitFor();
  });
  afterAll(async () => {
    await context?.close();
  });

  it.each(CATALOGUE[type].map((tab) => [tab.id, tab] as const))(
    '%s opens; a value per chapter is saved, moves the progress and survives a reload',
    async (_id, tab) => {
      await page.goto(`/orders/${type.toLowerCase()}/${orderId}/${tab.id}`);
      await page.getByTestId('order-footer').waitFor();
      await expect(page.getByTestId('toolbar-title').textContent()).resolves.not.toContain('catalogue.');
      let entry: string | undefined;
      let added = false;
      if (tab.perEntry) {
        // The summary: an entry is added with the picker unless the order has some, then opened as its sub-tab.
        await page.getByTestId('entry-summary').waitFor();
        const subTabs = page.locator(`[data-testid^="order-tab-${tab.id}-"]`);
        if ((await subTabs.count()) > 0) {
          entry = (await subTabs.first().getAttribute('data-testid'))!.slice(`order-tab-${tab.id}-`.length);
        } else {
          entry = perEntrySummary(type, tab, {})!.addable[0]!;
          added = true;
          await page.getByTestId(`entry-add-${tab.perEntry.differentiator.path}`).click();
          await page.getByTestId(`entry-add-option-${entry}`).click();
        }
        const subTab = page.getByTestId(`order-tab-${tab.id}-${entry}`);
        await subTab.click();
        // The toolbar names the entry as the tab list does ("Aufbau: Kessel", "Radsatz 1").
        const entryTitle = (await subTab.textContent()) ?? '';
        await expect.poll(() => page.getByTestId('toolbar-title').textContent()).toContain(entryTitle);
      }
      await page.getByTestId(`tab-${tab.id}`).waitFor();
      await expect(page.getByTestId('toolbar-title').textContent()).resolves.not.toContain('catalogue.');
      const fields = firstFields(type, tab, entry, added);
      const before = Number(await page.getByTestId(`progress-${tab.id}`).getAttribute('data-percent'));
      await page.evaluate(() => performance.clearMeasures('vers:save'));
      for (const { key, text } of fields) {
        const input = page.locator(`[data-key="${key}"]`);
        await input.fill(text);
        await input.press('Tab');
        await expect.poll(() => input.inputValue(), { message: key }).toBe(text);
      }
      if (fields.length > 0) {
        await expect
          .poll(() => page.getByTestId(`progress-${tab.id}`).getAttribute('data-percent').then(Number))
          .toBeGreaterThan(before);
      }
      // No label is left untranslated.
      await expect(page.getByTestId(`tab-${tab.id}`).textContent()).resolves.not.toContain('catalogue.');
      // Every value stored before the reload: a reload aborts an IndexedDB write still under way (the service
      // worker answers the reload at once), which no user could do within the few milliseconds of a save.
      await page.waitForFunction((n) => performance.getEntriesByName('vers:save').length >= n, fields.length);
      await page.reload();
      await page.getByTestId('order-footer').waitFor();
      for (const { key, text } of fields) {
        await expect.poll(() => page.locator(`[data-key="${key}"]`).inputValue(), { message: key }).toBe(text);
      }
      if (added && tab.perEntry) {
        // And the entry goes again, on both sides, after the confirmation.
        await page.getByTestId(`order-tab-${tab.id}`).click();
        await page.getByTestId(`entry-remove-${tab.perEntry.differentiator.path}`).click();
        await page.getByTestId(`entry-remove-option-${entry}`).click();
        await page.getByTestId('confirm-ok').click();
        await expect.poll(() => page.getByTestId(`order-tab-${tab.id}-${entry}`).count()).toBe(0);
      }
    },
  );
});
