// Screenshots of the screens as a user sees them, for looking at them: `npx tsx e2e/screenshots.ts [outDir]`.
// Starts the real product on a fresh data folder, signs in with demo users, writes PNGs.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { E2E_PASSWORD, startProduct } from './support/server.ts';

const outDir = path.resolve(process.argv[2] ?? 'e2e/artifacts/screens');
mkdirSync(outDir, { recursive: true });
const product = await startProduct();
const browser = await launchBrowser();

async function shoot(page: Page, name: string) {
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(outDir, `${name}.png`) });
}

try {
  for (const [lang, dark] of [
    ['de', false],
    ['en', true],
    ['bg', false],
  ] as const) {
    for (const [label, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['mobile', { width: 412, height: 915 }],
    ] as const) {
      const context = await browser.newContext({ baseURL: product.url, viewport });
      await context.addInitScript(
        ({ l, d }) => {
          if (!localStorage.getItem('vers-lang')) localStorage.setItem('vers-lang', l);
          if (!localStorage.getItem('vers-dark-mode')) localStorage.setItem('vers-dark-mode', d);
        },
        { l: lang as string, d: String(dark) },
      );
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByTestId('login-username').fill('staff');
      await page.getByTestId('login-password').fill('wrong');
      await page.getByTestId('login-submit').click();
      await page.getByTestId('login-error').waitFor();
      await shoot(page, `${lang}-${label}-login-error`);
      await page.getByTestId('login-password').fill(E2E_PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('home-welcome').waitFor();
      // The start page's dashboard with the workshop's figures and the turnaround chart (issue 23).
      await page.locator('[data-testid="dashboard"][data-source="server"]').waitFor();
      await page.getByTestId('dashboard-turnaround-chart').waitFor();
      await shoot(page, `${lang}-${label}-home`);
      if (label === 'mobile') {
        await page.getByTestId('drawer-open').click();
        await shoot(page, `${lang}-${label}-drawer`);
        await page.keyboard.press('Escape');
      }
      await page.goto('/profile');
      await page.getByTestId('profile-username').waitFor();
      await shoot(page, `${lang}-${label}-profile`);
      if (label === 'desktop') {
        await page.getByTestId('drawer-toggle').click();
        await shoot(page, `${lang}-${label}-mini`);
        await page.goto('/orders');
        await page.getByTestId('order-new').waitFor();
        await shoot(page, `${lang}-${label}-orders`);
      }
      // The order editor: a new wagon order's base data, its load limit grid and the first wheelset.
      await page.goto('/orders');
      await page.getByTestId('order-new').click();
      await page.getByTestId('order-number').fill('21 81 2471 217-3');
      await page.getByTestId('order-save').click();
      await page.waitForURL(/\/orders$/);
      await page.locator('[data-testid^="order-row-"]').first().click();
      await page.getByTestId('tab-basedata').waitFor();
      await shoot(page, `${lang}-${label}-editor-basedata`);
      for (const tab of ['loadLimitGrid', 'wheelsets-1']) {
        await page.getByTestId(`order-tab-${tab}`).click();
        await shoot(page, `${lang}-${label}-editor-${tab}`);
      }
      // Its documents: two generated, one still in generation on the first shot.
      await page.getByTestId('open-documents').click();
      await page.getByTestId('documents-page').waitFor();
      // (The release to service is issued once signed off: e2e/tests/sign-off.test.ts.)
      await page.getByTestId('documents-type-PREVIEW').check();
      await page.getByTestId('documents-type-XML_KEEPER').check();
      await page.getByTestId('documents-generate').click();
      await page.getByTestId('document-row').first().waitFor();
      await shoot(page, `${lang}-${label}-documents-generating`);
      await page.locator('[data-testid="document-row"][data-status="IN_GENERATION"]').first().waitFor({
        state: 'detached',
        timeout: 30_000,
      });
      await shoot(page, `${lang}-${label}-documents`);
      // The add-order screen with XML templates: one refused (wrong order type), the wagon's and a wheelset's taken.
      await page.goto('/orders/add');
      await page.getByTestId('order-import').setInputFiles(path.resolve('docs/xml/example-wheelset.xml'));
      await page.locator('[data-testid="order-import-state"][data-state="invalid"]').waitFor();
      await shoot(page, `${lang}-${label}-add-order-import-refused`);
      await page.getByTestId('order-import').setInputFiles(path.resolve('docs/xml/example-wagon.xml'));
      await page.locator('[data-testid="order-import-state"][data-state="valid"]').waitFor();
      await page.getByTestId('wheelset-import-0').setInputFiles(path.resolve('docs/xml/example-wheelset.xml'));
      await page.locator('[data-testid="wheelset-import-0-state"][data-state="valid"]').waitFor();
      await shoot(page, `${lang}-${label}-add-order-import`);
      if (label === 'desktop') {
        await page.getByTestId('logout').click();
        await page.getByTestId('login-username').fill('versadmin');
        await page.getByTestId('login-password').fill(E2E_PASSWORD);
        await page.getByTestId('login-submit').click();
        await page.getByTestId('menu-defaultOptions').click();
        await page.getByTestId('default-option-row-ListAuftraggeber').waitFor();
        await shoot(page, `${lang}-${label}-value-lists`);
        await page.getByTestId('default-option-row-ListAuftraggeber').click();
        await page.getByTestId('values-table').waitFor();
        await page.getByTestId('value-delete-DBC').click();
        await shoot(page, `${lang}-${label}-value-list`);
        await page.getByTestId('value-add').click();
        await shoot(page, `${lang}-${label}-value-dialog`);
        await page.keyboard.press('Escape');
        await page.getByTestId('logout').click();
        await page.getByTestId('login-username').fill('werkadmin');
        await page.getByTestId('login-password').fill(E2E_PASSWORD);
        await page.getByTestId('login-submit').click();
        await page.getByTestId('menu-users').click();
        await page.getByTestId('users-table').waitFor();
        await shoot(page, `${lang}-${label}-users`);
        await page.getByTestId('user-new').click();
        await shoot(page, `${lang}-${label}-user-dialog`);
        await page.keyboard.press('Escape');
        await page.getByTestId('menu-workshop').click();
        await page.getByTestId('workshop-form').waitFor();
        await shoot(page, `${lang}-${label}-workshop`);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await product.stop();
}
console.log(`screenshots in ${outDir}`);
