import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '@vers/domain';
import { baseUrl, launchBrowser, newContext, signIn } from '../support/browser.ts';
import { apiToken } from '../support/orders.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function chooseLanguage(page: Page, language: string) {
  await page.getByTestId('language-select').click();
  await page.getByTestId(`language-${language}`).click();
}

describe('sign-in, language, theme and sign-out', () => {
  it('shows the wrong-login message for a wrong password and stays on the login', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff', 'Not-The-Password1');
    await expect(page.getByTestId('login-error').textContent()).resolves.toBe('Benutzername oder Passwort falsch.');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('after too many wrong passwords says from what time to try again; a device known before still signs in', async () => {
    // A user of this test only, so that its failures throttle no other test.
    const created = await fetch(`${baseUrl()}/api/v1/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await apiToken('werkadmin')}` },
      body: JSON.stringify({
        username: `guessed-${Date.now()}`,
        firstName: 'Gina',
        lastName: 'Guessed',
        roles: [{ name: ROLES.WORKSHOP_STAFF }],
      }),
    });
    expect(created.status).toBe(201);
    const { user, password } = (await created.json()) as { user: { username: string }; password: string };
    // A browser that signed in as this user before: it holds the device cookie.
    const known = await newContext(browser);
    const knownPage = await known.newPage();
    await knownPage.goto('/login');
    await signIn(knownPage, user.username, password);
    await knownPage.getByTestId('menu').waitFor();
    // Another browser guesses the password until the server says to wait.
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    for (let attempt = 1; ; attempt++) {
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/signin')),
        signIn(page, user.username, `Wrong-Password-${attempt}`),
      ]);
      if (answer.status() === 429) break;
      expect(answer.status()).toBe(401);
      expect(attempt).toBeLessThan(10);
    }
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="login-error"]')?.textContent?.startsWith('Zu viele'),
    );
    await expect(page.getByTestId('login-error').textContent()).resolves.toMatch(
      /^Zu viele Fehlversuche\. Bitte ab \d\d:\d\d Uhr erneut versuchen\.$/,
    );
    await context.close();
    // The known browser signs in again (its session dropped) with the right password: not throttled.
    await knownPage.evaluate(() => localStorage.clear());
    await knownPage.goto('/login');
    await signIn(knownPage, user.username, password);
    await knownPage.getByTestId('menu').waitFor();
    await known.close();
  });

  it('starts in German without a setting, and in the browser language when it is one of the twelve', async () => {
    const german = await newContext(browser, 'ja-JP');
    const page = await german.newPage();
    await page.goto('/login');
    await expect(page.getByTestId('login-submit').textContent()).resolves.toBe('Anmelden');
    await german.close();
    const czech = await newContext(browser, 'cs-CZ');
    const czechPage = await czech.newPage();
    await czechPage.goto('/login');
    await expect(czechPage.getByTestId('login-submit').textContent()).resolves.toBe('Přihlásit se');
    await czech.close();
  });

  it('switches to Bulgarian and English, and keeps the language after a reload', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await chooseLanguage(page, 'bg'); // its catalogue loads on demand: wait for it
    await expect.poll(() => page.getByTestId('login-submit').textContent()).toBe('Вход');
    await signIn(page, 'staff');
    await page.getByTestId('menu').waitFor();
    await expect.poll(() => page.getByTestId('menu-orders').textContent()).toBe('Поръчки');
    await chooseLanguage(page, 'en');
    await expect.poll(() => page.getByTestId('menu-orders').textContent()).toBe('Orders');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await page.reload();
    await page.getByTestId('menu').waitFor();
    await expect(page.getByTestId('menu-profile').textContent()).resolves.toBe('Profile');
    expect(await page.evaluate(() => localStorage.getItem('vers-lang'))).toBe('en');
    await context.close();
  });

  it('keeps the dark theme after a reload', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'werkadmin');
    await page.getByTestId('menu').waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.getByTestId('theme-switch').check();
    const dark = await background();
    expect(dark).not.toBe(light);
    await page.reload();
    await page.getByTestId('menu').waitFor();
    expect(await background()).toBe(dark);
    await expect(page.getByTestId('theme-switch').isChecked()).resolves.toBe(true);
    await context.close();
  });

  it('shows the version in the drawer and copies the whole hash on a click', async () => {
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    const backend = page.getByTestId('version-backend');
    await expect(backend.textContent()).resolves.toMatch(/[0-9a-f]{8}|unknown/);
    const { gitSha } = (await (await page.request.get('/api/v1/version/current')).json()) as { gitSha: string };
    await expect.poll(() => backend.textContent()).toContain(gitSha.slice(0, 8));
    await backend.click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(gitSha);
    await context.close();
  });

  it('signs out back to /login, and the session is gone', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('menu').waitFor();
    await page.getByTestId('logout').click();
    await page.getByTestId('login-submit').waitFor();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('vers-user'))).toBeNull();
    await page.goto('/profile');
    await page.waitForURL(/\/login\?redirect=%2Fprofile$/);
    await context.close();
  });
});
