import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';

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
    await page.waitForURL(/\/login\?redirect=%2Fusers$/);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('keine ausreichenden Rechte');
    expect(await page.evaluate(() => localStorage.getItem('vers-user'))).toBeNull();
    await signIn(page, 'werkadmin');
    await page.waitForURL(/\/users$/);
    await expect(page.getByTestId('toolbar-title').textContent()).resolves.toBe('Benutzerverwaltung');
    await context.close();
  });

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
    await page.waitForURL(/\/login\?redirect=%2F$/);
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('nicht mehr angemeldet');
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
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('No connection to the server');
    await context.setOffline(false);
    await context.close();
  });
});
