import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatSignOffCode, formatVehicleNumber } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { launchBrowser, signIn } from '../support/browser.ts';
import { type KeeperOrder, PHONE, TABLET, contextIn, keeperOrderViaApi } from '../support/holder.ts';
import { apiToken, signOffViaApi } from '../support/orders.ts';
import { baseUrl } from '../support/browser.ts';

let browser: Browser;
/** The demo keeper's wagon (VKM GATX, painted `D-GATX`), released to service; and a wagon of another keeper. */
let own: KeeperOrder;
let foreign: KeeperOrder;
let releaseCode: string;
const files = mkdtempSync(path.join(tmpdir(), 'vers-holder-'));

beforeAll(async () => {
  browser = await launchBrowser();
  own = await keeperOrderViaApi('D-GATX', { released: true });
  foreign = await keeperOrderViaApi('D-VTGX');
  const signOffs = await fetch(`${baseUrl()}/api/v1/orders/${own.id}/sign-offs`, {
    headers: { authorization: `Bearer ${await apiToken('staff')}` },
  });
  releaseCode = ((await signOffs.json()) as { code: string }[])[0]!.code;
});
afterAll(async () => {
  await browser?.close();
});

type Catalogue = { [key: string]: string | Catalogue };
const catalogue = (language: string): Catalogue =>
  Object.assign(
    {},
    ...['i18n/locales', 'features/holder/locales', 'features/keepers/locales', 'features/users/locales'].map(
      (folder) =>
        JSON.parse(
          readFileSync(new URL(`../../apps/web/src/${folder}/${language}.json`, import.meta.url), 'utf8'),
        ) as Catalogue,
    ),
  ) as Catalogue;
/** A text as the app shows it in a language, by dotted key. */
function text(language: string, key: string, values: Record<string, string | number> = {}): string {
  let node: string | Catalogue | undefined = catalogue(language);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no ${language} text for ${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** The list's rows once the answer to the search typed last is shown. */
async function search(page: Page, term: string) {
  await page.getByTestId('holder-search').fill(term);
  await expect.poll(() => page.getByTestId('holder-orders').getAttribute('data-search')).toBe(term);
  await expect.poll(() => page.getByTestId('holder-orders').getAttribute('data-loading')).toBe('false');
}

const rowOf = (page: Page, order: KeeperOrder) =>
  page.locator(`[data-testid="holder-order-row"][data-order-id="${order.id}"]`);

/** A downloaded PDF as text (poppler's pdftotext). */
const pdfText = (where: string) => execFileSync('pdftotext', ['-layout', where, '-'], { encoding: 'utf8' });

describe.each([
  ['de', 'phone', PHONE],
  ['en', 'tablet', TABLET],
] as const)('the holder (%s, %s)', (language, _device, viewport) => {
  it('lands on their wagon list, finds their wagon by wagon and order number, and never another keeper’s', async () => {
    const context = await contextIn(browser, language, viewport);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'holder');
    await page.waitForURL(/\/holder$/);

    await search(page, own.wagonNumber);
    await rowOf(page, own).waitFor();
    await expect(rowOf(page, own).getByTestId('holder-order-wagon').textContent()).resolves.toBe(
      formatVehicleNumber(own.wagonNumber),
    );
    await expect(rowOf(page, own).textContent()).resolves.toContain('D-GATX');
    await expect(rowOf(page, own).getByTestId('holder-order-released').getAttribute('data-released')).resolves.toBe(
      'true',
    );
    await expect(page.getByTestId('holder-order-row').count()).resolves.toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    await search(page, own.number);
    await rowOf(page, own).waitFor();

    // Another keeper's wagon: not found by its number, and its address shows "not found".
    await search(page, foreign.wagonNumber);
    await expect(page.getByTestId('holder-empty').textContent()).resolves.toBe(text(language, 'holder.list.noMatch'));
    await expect(page.getByTestId('holder-order-row').count()).resolves.toBe(0);
    await page.goto(`/holder/orders/${foreign.id}`);
    await expect(page.getByTestId('holder-order-not-found').textContent()).resolves.toContain(
      text(language, 'holder.order.notFound'),
    );
    await context.close();
  });

  it('opens the order: an outgoing value, the sign-off, the release to service downloaded, and its code checked', async () => {
    const context = await contextIn(browser, language, viewport);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'holder');
    await page.waitForURL(/\/holder$/);
    await search(page, own.wagonNumber);
    await rowOf(page, own).click();
    await page.waitForURL(new RegExp(`/holder/orders/${own.id}$`));

    await expect(page.getByTestId('holder-order-head').getByTestId('holder-order-wagon').textContent()).resolves.toBe(
      formatVehicleNumber(own.wagonNumber),
    );
    const ecm = page.locator('[data-testid="holder-value"][data-key$=".Labeling.ECM"]');
    await expect(ecm.getByTestId('holder-value-text').textContent()).resolves.toBe('ECM-DE-0815');
    expect(await axeViolations(page)).toEqual([]);

    const signOff = page.getByTestId('holder-sign-offs').getByTestId('sign-off-row');
    await expect(signOff.getAttribute('data-meaning')).resolves.toBe('RELEASED_TO_SERVICE');
    await expect(signOff.getAttribute('data-superseded')).resolves.toBe('false');
    await expect(signOff.getByTestId('sign-off-code').textContent()).resolves.toContain(formatSignOffCode(releaseCode));

    // The release to service, made anew in the language of the screen, then downloaded: a PDF of this wagon.
    const release = page.getByTestId('holder-document-RELEASE_TO_SERVICE');
    const before = await release.getAttribute('data-filename');
    await release.getByTestId('holder-document-request').click();
    // The row shows the newest release: the new one (in this language) once listed, then available.
    await expect.poll(() => release.getAttribute('data-filename')).toMatch(new RegExp(`_${language}\\.pdf$`));
    await expect.poll(() => release.getAttribute('data-status')).toBe('AVAILABLE');
    expect(before === '' || !before?.endsWith(`_${language}.pdf`)).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      release.getByTestId('holder-document-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`_release_to_service_${language}\\.pdf$`));
    const where = path.join(files, `${language}-${download.suggestedFilename()}`);
    await download.saveAs(where);
    expect(readFileSync(where).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfText(where)).toContain(formatVehicleNumber(own.wagonNumber));

    // A code that is not this order's is said; the printed code of its release opens the check: still as signed.
    await page.getByTestId('holder-code-input').fill('ABCD-EFGH-JKMN-PQRS');
    await page.getByTestId('holder-code-submit').click();
    await page.getByTestId('holder-code-other').waitFor();
    await page.getByTestId('holder-code-input').fill(formatSignOffCode(releaseCode).toLowerCase());
    await page.getByTestId('holder-code-submit').click();
    await page.waitForURL(new RegExp(`/check/${releaseCode}$`));
    await expect.poll(() => page.getByTestId('check-result').getAttribute('data-state')).toBe('MATCHES');
    await context.close();
  });
});

describe('the holder waiting for a release (English, tablet)', () => {
  it('is told the release is not signed off yet, then sees the sign-off appear without reloading', async () => {
    const waiting = await keeperOrderViaApi('D-GATX', { entered: true });
    const context = await contextIn(browser, 'en', TABLET);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'holder');
    await page.waitForURL(/\/holder$/);
    await page.goto(`/holder/orders/${waiting.id}`);
    await page.getByTestId('holder-sign-offs').getByTestId('sign-off-none').waitFor();

    const release = page.getByTestId('holder-document-RELEASE_TO_SERVICE');
    await release.getByTestId('holder-document-request').click();
    await expect(page.getByTestId('holder-document-error').textContent()).resolves.toBe(
      text('en', 'holder.documents.releaseNotSigned'),
    );
    await expect(release.getAttribute('data-status')).resolves.toBe('NONE');

    // Wagon QA signs it off as released; the open view shows it on its next refresh, and the release can be made.
    await signOffViaApi(waiting.id, { meaning: 'RELEASED_TO_SERVICE', status: 'DONE' });
    const signOff = page.getByTestId('holder-sign-offs').getByTestId('sign-off-row');
    await signOff.waitFor();
    await expect(signOff.getAttribute('data-meaning')).resolves.toBe('RELEASED_TO_SERVICE');
    await release.getByTestId('holder-document-request').click();
    await expect.poll(() => release.getAttribute('data-status')).toBe('AVAILABLE');
    await context.close();
  });
});

describe('a system admin sets a keeper up (English, tablet)', () => {
  it('creates a keeper and a holder user of it in the UI; the holder signs in and lands on the list', async () => {
    const context = await contextIn(browser, 'en', TABLET);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'admin');
    await page.getByTestId('menu-keepers').click();
    await page.waitForURL(/\/keepers$/);
    // Looked at before anything is saved: a success message fading in would be judged half transparent.
    await page.locator('[data-testid^="keeper-row-"]').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const suffix = Date.now()
      .toString(36)
      .replace(/[^a-z]/g, '')
      .slice(-3)
      .padEnd(3, 'q');
    const vkm = `Z${suffix}`.toUpperCase();
    const name = `Keeper ${vkm}`;
    await page.getByTestId('keeper-new').click();
    await page.getByTestId('keeper-name').fill(name);
    // Typed as painted, in lower case: what will be stored is shown, upper case, without the country.
    await page.getByTestId('keeper-markings').fill(`d-${vkm.toLowerCase()}`);
    await page.getByTestId(`keeper-stored-${vkm}`).waitFor();
    await page.getByTestId('keeper-save').click();
    const keeperRow = page.locator(`[data-testid^="keeper-row-"][data-name="${name}"]`);
    await keeperRow.waitFor();
    await expect(keeperRow.textContent()).resolves.toContain(vkm);

    const username = `holder${Date.now().toString(36)}`;
    await page.getByTestId('menu-users').click();
    await page.waitForURL(/\/users$/);
    await page.getByTestId('user-new').click();
    await page.getByTestId('user-username').fill(username);
    await page.getByTestId('user-firstname').fill('Hanna');
    await page.getByTestId('user-lastname').fill('Halter');
    await page.getByTestId('user-roles').click();
    await page.getByTestId('role-option-ROLE_HOLDER').click();
    await page.keyboard.press('Escape');
    // A holder needs their keeper: save waits for it.
    await expect(page.getByTestId('user-save').isDisabled()).resolves.toBe(true);
    await page.getByTestId('user-keeper').click();
    await page.getByRole('option', { name }).click();
    await page.getByTestId('user-save').click();
    const initial = page.getByTestId('initial-password');
    await initial.waitFor();
    const password = ((await initial.textContent()) ?? '').trim();
    await page.getByTestId('initial-password-close').click();

    // The keeper now has a user: deleting it is refused with the reason.
    await page.getByTestId('menu-keepers').click();
    await keeperRow.waitFor();
    await expect(keeperRow.getByTestId('keeper-users').textContent()).resolves.toBe('1');
    await keeperRow.locator('[data-testid^="keeper-delete-"]').click();
    await page.getByTestId('confirm-ok').click();
    await page
      .locator('.MuiSnackbar-root [role="alert"]')
      .filter({ hasText: text('en', 'keepers.error.inUse') })
      .waitFor();

    await page.getByTestId('logout').click();
    await page.getByTestId('login-submit').waitFor();
    await signIn(page, username, password);
    await page.waitForURL(/\/holder$/);
    await expect(page.getByTestId('holder-empty').textContent()).resolves.toBe(text('en', 'holder.list.empty'));
    await context.close();
  });
});
