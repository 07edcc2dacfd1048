import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signIn } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('route guard', () => {
  it('sends a visitor without a session to the login, and back after signing in', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/profile');
    await page.waitForURL(/\/login\?redirect=/);
    expect(pathOf(page.url())).toBe('/login?redirect=%2Fprofile');
    await signIn(page, 'staff');
    await page.waitForURL(/\/profile$/);
    await expect(page.getByTestId('toolbar-title').textContent()).resolves.toBe('Profil');
    await context.close();
  });

  it('sends an unknown path to the start page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('home-welcome').waitFor();
    await page.goto('/no/such/page');
    await page.getByTestId('home-welcome').waitFor();
    expect(pathOf(page.url())).toBe('/');
    await context.close();
  });

  it('logs out a signed-in user without a listed role, with the 403 reason, and offers a sign-in that returns', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('home-welcome').waitFor();
    await page.goto('/users');
    await page.waitForURL(/\/login\?redirect=%2Fusers&reason=403$/);
    await expect(page.getByTestId('login-reason').textContent()).resolves.toContain('keine ausreichenden Rechte');
    expect(await page.evaluate(() => localStorage.getItem('vers-user'))).toBeNull();
    await signIn(page, 'werkadmin');
    await page.waitForURL(/\/users$/);
    await expect(page.getByTestId('toolbar-title').textContent()).resolves.toBe('Benutzerverwaltung');
    await context.close();
  });

  it.each([
    ['de-DE', 1280, 800, 'keine ausreichenden Rechte für diese Seite'],
    ['en-GB', 412, 915, 'You do not have sufficient rights for this page'],
  ] as const)(
    'says on the sign-in itself why a user without the rights was sent there (%s, %i px), until a sign-in succeeds',
    async (locale, width, height, text) => {
      const context = await browser.newContext({ baseURL: baseUrl(), locale, viewport: { width, height } });
      const page = await context.newPage();
      await page.goto('/login');
      await signIn(page, 'staff');
      await page.getByTestId('home-welcome').waitFor();
      // A client-side navigation (a link or the back button), as a user meets it; a full load behaves the same.
      await page.evaluate(() => {
        window.history.pushState({}, '', '/workshop/1');
        window.dispatchEvent(new PopStateEvent('popstate'));
      });
      await page.waitForURL(/\/login\?redirect=%2Fworkshop%2F1&reason=403$/);
      const reason = page.getByTestId('login-reason');
      await expect(reason.textContent()).resolves.toContain(text);
      // It stays: no snackbar that times out; a reload keeps it; a wrong password adds its own error below.
      await page.reload();
      await expect(reason.textContent()).resolves.toContain(text);
      await signIn(page, 'werkadmin', 'wrong-password');
      await page.getByTestId('login-error').waitFor();
      expect(await reason.isVisible()).toBe(true);
      await signIn(page, 'werkadmin');
      await page.waitForURL(/\/workshop\/1$/);
      // Below 900 px the menu, and with it the sign-out, is a drawer that opens first.
      if (width < 900) await page.getByTestId('drawer-open').click();
      await page.getByTestId('logout').click();
      await page.waitForURL(/\/login$/);
      expect(await page.getByTestId('login-reason').count()).toBe(0);
      await context.close();
    },
  );

  it('answers a call refused with 401 by signing out and offering a sign-in back to the page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('home-site-id').waitFor();
    // The stored token no longer matches anything the server issued (as after a password change).
    await page.evaluate(() => {
      const user = JSON.parse(localStorage.getItem('vers-user') ?? '{}');
      localStorage.setItem('vers-user', JSON.stringify({ ...user, token: 'expired.or.revoked' }));
    });
    await page.reload();
    await page.waitForURL(/\/login\?redirect=%2F&reason=401$/);
    await expect(page.getByTestId('login-reason').textContent()).resolves.toContain('nicht mehr angemeldet');
    await context.close();
  });

  it('says there is no connection when a call cannot reach the server', async () => {
    const context = await newContext(browser, 'en-GB');
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('home-site-id').waitFor();
    await page.goto('/profile');
    await page.getByTestId('profile-username').waitFor();
    await context.setOffline(true);
    // A client-side navigation to the start page, whose call now finds no network.
    await page.evaluate(() => window.history.pushState({}, '', '/'));
    await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
    // The offline banner is an alert too, and may come first: the page's own message is waited for among them.
    await page.getByRole('alert').filter({ hasText: 'No connection to the server' }).first().waitFor();
    await context.setOffline(false);
    await context.close();
  });
});
