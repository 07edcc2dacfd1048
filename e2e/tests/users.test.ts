import { readFileSync } from 'node:fs';
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

type Catalogue = { [key: string]: string | Catalogue };
const readCatalogue = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../apps/web/src/${file}`, import.meta.url), 'utf8')) as Catalogue;
/** The German texts as the app shows them (the app's catalogue plus the users feature's), by dotted key. */
const german: Catalogue = {
  ...readCatalogue('i18n/locales/de.json'),
  ...readCatalogue('features/users/locales/de.json'),
};
function de(key: string, values: Record<string, string | number> = {}): string {
  let node: string | Catalogue | undefined = german;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no German text for ${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** Usernames no other test (nor an earlier run on the same data) uses. */
let counter = 0;
const uniqueUsername = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

async function openUsersAsWerkadmin(page: Page) {
  await page.goto('/login');
  await signIn(page, 'werkadmin');
  await page.getByTestId('menu').waitFor();
  await page.getByTestId('menu-users').click();
  await page.waitForURL(/\/users$/);
  await page.getByTestId('user-row-werkadmin').waitFor();
}

/** A user created through the API, so that a test can work on it without touching the demo users. */
async function createUserByApi(username: string): Promise<void> {
  const signin = await fetch(`${baseUrl()}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userName: 'werkadmin', password: E2E_PASSWORD }),
  });
  const { token } = (await signin.json()) as { token: string };
  const created = await fetch(`${baseUrl()}/api/v1/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      username,
      firstName: 'Paula',
      lastName: 'Passwort',
      roles: [{ name: 'ROLE_WORKSHOP_STAFF' }],
    }),
  });
  expect(created.status).toBe(201);
}

/**
 * The snackbar messages. While a dialog is open MUI hides the rest of the page from the accessibility tree, so
 * they are found by their role attribute rather than by getByRole.
 */
const snackbar = (page: Page) => page.locator('.MuiSnackbar-root [role="alert"]');

const isDisabled = (page: Page, testId: string) => page.getByTestId(testId).isDisabled();

describe('user management (werkadmin, German)', () => {
  it('creates a user whose initial password signs in', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await openUsersAsWerkadmin(page);
    await expect(page.getByTestId('toolbar-title').textContent()).resolves.toBe('Benutzerverwaltung');
    await expect(page.getByTestId('users-table').textContent()).resolves.toContain(de('roles.ROLE_WORKSHOP_ADMIN'));

    const username = uniqueUsername('neu');
    await page.getByTestId('user-new').click();
    const dialog = page.getByTestId('user-dialog');
    await dialog.waitFor();
    await expect(isDisabled(page, 'user-save')).resolves.toBe(true);
    // Too short a username: the field says so in German, and save stays disabled.
    await page.getByTestId('user-username').fill('ab');
    await page.getByTestId('user-firstname').click();
    await dialog.getByText(de('users.validation.minLength', { min: 3 })).waitFor();
    await page.getByTestId('user-username').fill(username);
    await page.getByTestId('user-firstname').fill('Nora');
    await page.getByTestId('user-lastname').fill('Neumann');
    await expect(isDisabled(page, 'user-save')).resolves.toBe(true); // no role yet
    await page.getByTestId('user-roles').click();
    await page.getByTestId('role-option-ROLE_WORKSHOP_STAFF').click();
    await page.keyboard.press('Escape');
    await expect(isDisabled(page, 'user-save')).resolves.toBe(false);
    await page.getByTestId('user-save').click();

    const initial = page.getByTestId('initial-password');
    await initial.waitFor();
    const password = ((await initial.textContent()) ?? '').trim();
    expect(password.length).toBeGreaterThanOrEqual(8);
    await expect(page.getByTestId('initial-password-dialog').textContent()).resolves.toContain(
      de('users.initialWarning'),
    );
    await snackbar(page)
      .filter({ hasText: de('users.created', { username }) })
      .waitFor();
    await page.getByTestId('initial-password-close').click();
    await page.getByTestId('initial-password-dialog').waitFor({ state: 'detached' });

    // The new user is in the table (all rows shown, whatever number of users earlier tests added).
    await page.getByTestId('users-rows-per-page').click();
    await page.getByRole('option', { name: de('table.all') }).click();
    const row = page.getByTestId(`user-row-${username}`);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(de('roles.ROLE_WORKSHOP_STAFF'));
    await expect(page.getByTestId(`user-enabled-${username}`).getAttribute('data-enabled')).resolves.toBe('true');

    await page.getByTestId('logout').click();
    await page.getByTestId('login-submit').waitFor();
    await signIn(page, username, password);
    await page.getByTestId('menu').waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('vers-user') ?? '{}') as object);
    expect(stored).toMatchObject({ username, firstName: 'Nora', lastName: 'Neumann', roles: ['ROLE_WORKSHOP_STAFF'] });
    await context.close();
  });

  it('keeps the set-password save disabled until the password meets every rule, then sets it', async () => {
    const username = uniqueUsername('pw');
    await createUserByApi(username);
    const context = await newContext(browser);
    const page = await context.newPage();
    await openUsersAsWerkadmin(page);
    await page.getByTestId('users-rows-per-page').click();
    await page.getByRole('option', { name: de('table.all') }).click();
    await page.getByTestId(`user-password-${username}`).click();
    await page.getByTestId('password-dialog').waitFor();
    const rule = (name: string) => page.getByTestId(`password-rule-${name}`).getAttribute('data-ok');

    const weak: [password: string, missing: string][] = [
      ['Ab1', 'minLength'],
      ['short1A', 'minLength'],
      ['alllowercase1', 'uppercase'],
      ['ALLUPPERCASE1', 'lowercase'],
      ['NoDigitsHere', 'digit'],
    ];
    for (const [password, missing] of weak) {
      await page.getByTestId('user-password').fill(password);
      await page.getByTestId('user-password-repeat').fill(password);
      await expect(isDisabled(page, 'password-save')).resolves.toBe(true);
      await expect(rule(missing)).resolves.toBe('false');
      await expect(rule('repeat')).resolves.toBe('true');
    }
    // Strong, but the repeat differs.
    await page.getByTestId('user-password').fill('Neues-Pass1');
    await page.getByTestId('user-password-repeat').fill('Neues-Pass2');
    await expect(isDisabled(page, 'password-save')).resolves.toBe(true);
    for (const name of ['minLength', 'lowercase', 'uppercase', 'digit']) await expect(rule(name)).resolves.toBe('true');
    await expect(rule('repeat')).resolves.toBe('false');
    await page.getByTestId('password-dialog').getByText(de('users.rules.mismatch')).waitFor();

    await page.getByTestId('user-password-repeat').fill('Neues-Pass1');
    await expect(isDisabled(page, 'password-save')).resolves.toBe(false);
    await page.getByTestId('password-save').click();
    await page.getByTestId('password-dialog').waitFor({ state: 'detached' });
    await snackbar(page)
      .filter({ hasText: de('users.passwordSet', { username }) })
      .waitFor();
    await context.close();

    // The password arrived as the server stores it: the user signs in with it.
    const second = await newContext(browser);
    const userPage = await second.newPage();
    await userPage.goto('/login');
    await signIn(userPage, username, 'Neues-Pass1');
    await userPage.getByTestId('menu').waitFor();
    await second.close();
  });

  it('shows the USER_EXISTS message, naming the user, for a username that is taken', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await openUsersAsWerkadmin(page);
    await page.getByTestId('user-new').click();
    await page.getByTestId('user-username').fill('staff');
    await page.getByTestId('user-firstname').fill('Doppel');
    await page.getByTestId('user-lastname').fill('Gänger');
    await page.getByTestId('user-roles').click();
    await page.getByTestId('role-option-ROLE_WORKSHOP_STAFF').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('user-save').click();

    const message = de('errors.USER_EXISTS');
    const alert = snackbar(page).filter({ hasText: message });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toBe(de('users.createError', { username: 'staff', reason: message }));
    // The dialog stays open with the entries, the username marked, and save disabled until it changes.
    await page.getByTestId('user-dialog').getByText(message).waitFor();
    await expect(isDisabled(page, 'user-save')).resolves.toBe(true);
    await page.getByTestId('user-username').fill(uniqueUsername('anders'));
    await expect(isDisabled(page, 'user-save')).resolves.toBe(false);
    await page.getByTestId('user-cancel').click();
    await page.getByTestId('user-dialog').waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('a system admin picks the workshop whose users they manage (issue 20)', () => {
  const SOUTH = 'VERS Demo-Werkstatt Süd';
  const NORTH = 'VERS Demo-Werkstatt Nord';

  /** The option of the workshop picker that names `name`. */
  async function pickWorkshop(page: Page, name: string | null) {
    await page.getByTestId('users-workshop-field').getByRole('combobox').click();
    const option = name === null ? page.getByTestId('users-workshop-none') : page.getByRole('option', { name });
    await option.first().click();
  }

  it('lists the users of the picked workshop and creates a user in it (admin, German, 1280 px)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'admin');
    await page.getByTestId('menu-users').click();
    await page.waitForURL(/\/users$/);
    // At first: the users of no workshop, the system's own; no word of "all workshops".
    await page.getByTestId('user-row-versadmin').waitFor();
    expect(await page.getByText(de('home.noWorkshop')).count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('users-workshop-field').textContent())
      .toContain(de('users.noWorkshopOption'));
    expect(await page.getByTestId('user-row-werkadmin').count()).toBe(0);

    await pickWorkshop(page, SOUTH);
    await page.waitForURL(/\/users\?workshop=\d+$/);
    await page.getByTestId('user-row-werkadmin2').waitFor();
    expect(await page.getByTestId('user-row-versadmin').count()).toBe(0);
    expect(await page.getByTestId('user-row-werkadmin').count()).toBe(0);
    await expect(page.getByTestId('users-workshop-settings').getAttribute('href')).resolves.toMatch(
      /^\/workshop\/\d+$/,
    );

    const username = uniqueUsername('sued');
    await page.getByTestId('user-new').click();
    await expect(page.getByTestId('user-workshop-note').textContent()).resolves.toBe(
      de('home.workshop', { name: SOUTH }),
    );
    await page.getByTestId('user-username').fill(username);
    await page.getByTestId('user-firstname').fill('Sina');
    await page.getByTestId('user-lastname').fill('Süd');
    await page.getByTestId('user-roles').click();
    await page.getByTestId('role-option-ROLE_WORKSHOP_STAFF').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('user-save').click();
    const initial = page.getByTestId('initial-password');
    await initial.waitFor();
    const password = ((await initial.textContent()) ?? '').trim();
    await page.getByTestId('initial-password-close').click();
    await page.getByTestId('users-rows-per-page').click();
    await page.getByRole('option', { name: de('table.all') }).click();
    await page.getByTestId(`user-row-${username}`).waitFor();

    // A reload keeps the workshop; the new user belongs to it (their own session says so).
    await page.reload();
    await page.getByTestId('user-row-werkadmin2').waitFor();
    await expect.poll(() => page.getByTestId('users-workshop-field').textContent()).toContain(SOUTH);
    const fresh = await browser.newContext({ baseURL: baseUrl() });
    const newcomer = await fresh.newPage();
    await newcomer.goto('/login');
    await signIn(newcomer, username, password);
    await newcomer.getByTestId('menu').waitFor();
    const stored = await newcomer.evaluate(
      () => JSON.parse(localStorage.getItem('vers-user') ?? '{}') as { workshop: { name: string } | null },
    );
    expect(stored.workshop?.name).toBe(SOUTH);
    await fresh.close();

    // Back to the system's own users.
    await pickWorkshop(page, null);
    await page.waitForURL(/\/users$/);
    await page.getByTestId('user-row-versadmin').waitFor();
    await context.close();
  });

  it('works on a phone in English (versadmin, 412 px)', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl(),
      locale: 'en-GB',
      viewport: { width: 412, height: 915 },
    });
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'versadmin');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto('/users');
    await page.getByTestId('user-row-admin').waitFor();
    await expect
      .poll(() => page.getByTestId('users-workshop-field').textContent())
      .toContain('No workshop (system users)');
    await pickWorkshop(page, NORTH);
    await page.getByTestId('user-row-werkadmin').waitFor();
    expect(await page.getByTestId('user-row-admin').count()).toBe(0);
    // Nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it("keeps a workshop admin's page to their own workshop, without a picker", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await openUsersAsWerkadmin(page);
    expect(await page.getByTestId('users-workshop-field').count()).toBe(0);
    await page.getByText(de('home.workshop', { name: NORTH })).waitFor();
    // A workshop named in the address changes nothing for them.
    await page.goto('/users?workshop=2');
    await page.getByTestId('user-row-werkadmin').waitFor();
    expect(await page.getByTestId('user-row-werkadmin2').count()).toBe(0);
    await context.close();
  });
});
