import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signIn } from '../support/browser.ts';

// Everything here changes data of the second demo workshop only (werkadmin2, "VERS Demo-Werkstatt Süd",
// one e-mail address at the start), so that the other test files sharing the product are not disturbed.

type Catalogue = { [key: string]: string | Catalogue };
const readCatalogue = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../apps/web/src/${path}`, import.meta.url), 'utf8')) as Catalogue;
const catalogue: Catalogue = {
  ...readCatalogue('i18n/locales/de.json'),
  ...readCatalogue('features/workshop/locales/de.json'),
};

/** The German text of a catalogue key, with {{placeholders}} filled in. */
function de(key: string, values: Record<string, string> = {}): string {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no German text for ${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  await page.goto('/login');
  await signIn(page, 'werkadmin2');
  await page.getByTestId('menu').waitFor();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const snackbar = (p: Page, text: string) => p.getByRole('alert').filter({ hasText: text });
const rows = (p: Page) => p.getByTestId('email-list').locator('[data-testid^="email-row-"]');

async function openWorkshopPage(p: Page) {
  await p.getByTestId('email-list').waitFor();
  await p.getByTestId('workshop-form').waitFor();
}

async function addAddress(p: Page, address: string, language?: string) {
  await p.getByTestId('email-add').click();
  await p.getByTestId('email-dialog').waitFor();
  await p.getByTestId('email-address').fill(address);
  if (language) {
    await p.getByTestId('email-language').click();
    await p.getByTestId(`email-language-${language}`).click();
  }
  await p.getByTestId('email-save').click();
}

describe('workshop settings (werkadmin2)', () => {
  it('opens the workshop page from the menu, saves a change and keeps it after a reload', async () => {
    await page.getByTestId('menu-workshop').click();
    await page.waitForURL(/\/workshop\/\d+$/);
    await openWorkshopPage(page);
    await expect(page.getByTestId('workshop-name').inputValue()).resolves.toBe('VERS Demo-Werkstatt Süd');
    const save = page.getByTestId('workshop-save');
    await expect(save.isDisabled()).resolves.toBe(true); // nothing changed yet

    // Invalid entries keep save disabled.
    await page.getByTestId('workshop-name').fill('   ');
    await expect(save.isDisabled()).resolves.toBe(true);
    await page.getByTestId('workshop-name').fill('VERS Demo-Werkstatt Süd');
    await page.getByTestId('workshop-country-code').fill('A1');
    await expect(save.isDisabled()).resolves.toBe(true);
    await page.getByTestId('workshop-country-code').fill('at');
    await expect(page.getByTestId('workshop-country-code').inputValue()).resolves.toBe('AT');
    await expect(save.isDisabled()).resolves.toBe(true); // the same as saved

    await page.getByTestId('workshop-phone').fill('+43 732 555 0101');
    await page.getByTestId('workshop-add-last-modifier').check();
    await expect(save.isEnabled()).resolves.toBe(true);
    await save.click();
    await snackbar(page, de('workshop.saved')).waitFor();
    await expect.poll(() => save.isDisabled()).toBe(true);

    await page.reload();
    await openWorkshopPage(page);
    await expect(page.getByTestId('workshop-phone').inputValue()).resolves.toBe('+43 732 555 0101');
    await expect(page.getByTestId('workshop-add-last-modifier').isChecked()).resolves.toBe(true);

    // The audit trail names the change, who made it, and what changed.
    const latest = page.getByTestId('audit-entry').first();
    await latest.waitFor();
    const text = await latest.textContent();
    expect(text).toContain(de('workshop.audit.action.workshop.changed'));
    expect(text).toContain('werkadmin2');
    expect(text).toContain(`${de('workshop.fields.phone')}: +43 732 987 650 → +43 732 555 0101`);
    expect(text).toContain(
      `${de('workshop.fields.addLastModifier')}: ${de('workshop.audit.no')} → ${de('workshop.audit.yes')}`,
    );
  });

  it('keeps save disabled for an invalid e-mail address, and Esc closes the dialog', async () => {
    await expect(rows(page).count()).resolves.toBe(1);
    await page.getByTestId('email-add').click();
    const dialog = page.getByTestId('email-dialog');
    await dialog.waitFor();
    // The language defaults to the interface language.
    await expect(page.getByTestId('email-language').textContent()).resolves.toContain('Deutsch');
    const save = page.getByTestId('email-save');
    await expect(save.isDisabled()).resolves.toBe(true);
    for (const invalid of ['not-an-address', 'werkstatt@', '@example.org', 'a b@example.org']) {
      await page.getByTestId('email-address').fill(invalid);
      await expect(save.isDisabled()).resolves.toBe(true);
    }
    await dialog.getByText(de('workshop.validation.email')).waitFor();
    await page.getByTestId('email-address').fill('valid@example.org');
    await expect(save.isEnabled()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect(rows(page).count()).resolves.toBe(1); // nothing was saved
  });

  it('adds addresses up to 10; an 11th is refused by the page and by the server', async () => {
    // At the minimum of one address, deleting is not offered.
    await expect(page.getByTestId('email-delete-0').isDisabled()).resolves.toBe(true);
    await page.getByTestId('email-min-hint').waitFor();

    await addAddress(page, 'sued-1@example.org', 'en');
    await snackbar(page, de('workshop.email.created', { address: 'sued-1@example.org' })).waitFor();
    await expect.poll(() => rows(page).count()).toBe(2);
    await expect(page.getByTestId('email-row-1').textContent()).resolves.toContain('English');
    await expect(page.getByTestId('email-delete-0').isEnabled()).resolves.toBe(true);

    // A duplicate is refused by the server; the dialog keeps the input and shows why.
    await addAddress(page, 'SUED-1@example.org');
    await expect(page.getByTestId('email-dialog-error').textContent()).resolves.toBe(de('errors.EMAIL_EXISTS'));
    await expect(page.getByTestId('email-address').inputValue()).resolves.toBe('SUED-1@example.org');
    await page.getByTestId('email-cancel').click();
    await page.getByTestId('email-dialog').waitFor({ state: 'hidden' });

    for (let n = 2; n <= 8; n++) {
      await addAddress(page, `sued-${n}@example.org`);
      await page.getByTestId('email-dialog').waitFor({ state: 'hidden' });
      await expect.poll(() => rows(page).count()).toBe(n + 1);
    }

    // A second tab still showing 9 addresses.
    const other = await context.newPage();
    await other.goto(page.url());
    await openWorkshopPage(other);
    await expect.poll(() => rows(other).count()).toBe(9);

    await addAddress(page, 'sued-9@example.org');
    await page.getByTestId('email-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => rows(page).count()).toBe(10);
    await expect(page.getByTestId('email-add').isDisabled()).resolves.toBe(true);
    await page.getByTestId('email-max-hint').waitFor();

    // The stale tab tries an 11th: the server refuses it with its limit message.
    await expect(other.getByTestId('email-add').isEnabled()).resolves.toBe(true);
    await addAddress(other, 'sued-10@example.org');
    await expect.poll(() => other.getByTestId('email-dialog-error').textContent()).toBe(de('errors.EMAIL_LIMIT_MAX'));
    await other.keyboard.press('Escape');
    await expect.poll(() => rows(other).count()).toBe(10); // read again after the refusal
    await expect(other.getByTestId('email-add').isDisabled()).resolves.toBe(true);
    await other.close();

    // Editing changes the address and its language.
    await page.getByTestId('email-edit-2').click();
    await page.getByTestId('email-dialog').waitFor();
    await expect(page.getByTestId('email-address').inputValue()).resolves.toBe('sued-2@example.org');
    await page.getByTestId('email-address').fill('sued-2-neu@example.org');
    await page.getByTestId('email-language').click();
    await page.getByTestId('email-language-fr').click();
    await page.getByTestId('email-save').click();
    await page.getByTestId('email-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('email-row-2').textContent()).toContain('sued-2-neu@example.org');
    await expect(page.getByTestId('email-row-2').textContent()).resolves.toContain('Français');

    // Deleting one (after confirming) makes room again.
    await page.getByTestId('email-delete-9').click();
    await page.getByTestId('confirm-ok').click();
    await snackbar(page, de('workshop.email.deleted', { address: 'sued-9@example.org' })).waitFor();
    await expect.poll(() => rows(page).count()).toBe(9);
    await expect(page.getByTestId('email-add').isEnabled()).resolves.toBe(true);
    await page.reload();
    await openWorkshopPage(page);
    await expect.poll(() => rows(page).count()).toBe(9);
  });

  it('accepts only PNG logos: other files show the PNG-only message, a real PNG is shown', async () => {
    const upload = page.getByTestId('workshop-logo-upload');
    const error = page.getByTestId('workshop-logo-error');
    await page.getByTestId('workshop-logo-none').waitFor();

    await upload.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a not a png') });
    await expect(error.textContent()).resolves.toBe(de('errors.NOT_PNG'));
    await upload.setInputFiles({
      name: 'logo.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
    });
    await expect(error.textContent()).resolves.toBe(de('errors.NOT_PNG'));

    // Too large: refused before any upload.
    const huge = Buffer.concat([PNG, Buffer.alloc(600 * 1024)]);
    await upload.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: huge });
    await expect(error.textContent()).resolves.toBe(de('workshop.logo.tooLarge', { max: '512' }));

    // Small in bytes but 12000 x 12000 pixels by its header: refused before any upload, too.
    const wide = Buffer.from(PNG);
    wide.writeUInt32BE(12_000, 16);
    wide.writeUInt32BE(12_000, 20);
    await upload.setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: wide });
    await expect.poll(() => error.textContent()).toBe(de('workshop.logo.tooManyPixels', { max: '2048' }));

    await upload.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await snackbar(page, de('workshop.logo.saved')).waitFor();
    const image = page.getByTestId('workshop-logo-image');
    await image.waitFor();
    await expect(error.count()).resolves.toBe(0);
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

    await page.reload();
    await openWorkshopPage(page);
    await image.waitFor();
    expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });
});

describe("another workshop's page (issue 20)", () => {
  it.each([
    ['de-DE', 1280, 800, 'Sie haben keine ausreichenden Rechte für diese Seite'],
    ['en-GB', 412, 915, 'You do not have sufficient rights for this page'],
  ] as const)(
    "shows a workshop admin the rights message, not 'could not be loaded' (%s, %i px)",
    async (locale, width, height, text) => {
      const ctx = await browser.newContext({ baseURL: baseUrl(), locale, viewport: { width, height } });
      const other = await ctx.newPage();
      await other.goto('/login');
      await signIn(other, 'werkadmin');
      await other.waitForURL((url) => !url.pathname.startsWith('/login'));
      const own = await other.evaluate(
        () => (JSON.parse(localStorage.getItem('vers-user') ?? '{}') as { workshop: { id: number } }).workshop.id,
      );
      let asked = 0;
      await other.route('**/api/v1/workshops/**', async (route) => {
        asked += 1;
        await route.continue();
      });
      await other.goto(`/workshop/${own + 1}`);
      const message = other.getByTestId('workshop-forbidden');
      await expect(message.textContent()).resolves.toContain(text);
      expect(await other.getByTestId('workshop-load-error').count()).toBe(0);
      expect(await other.getByTestId('email-list').count()).toBe(0);
      expect(asked).toBe(0);
      // The own workshop still opens, and the session stayed.
      await other.goto(`/workshop/${own}`);
      await openWorkshopPage(other);
      await ctx.close();
    },
  );

  it('tells a system admin that a workshop id does not exist, without a retry', async () => {
    const ctx = await newContext(browser);
    const admin = await ctx.newPage();
    await admin.goto('/login');
    await signIn(admin, 'versadmin');
    await admin.getByTestId('menu').waitFor();
    await admin.goto('/workshop/999999');
    await expect(admin.getByTestId('workshop-missing').textContent()).resolves.toBe(de('workshop.missing'));
    expect(await admin.getByTestId('workshop-load-error').count()).toBe(0);
    await ctx.close();
  });
});
