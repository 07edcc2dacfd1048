import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from '../support/browser.ts';
import { E2E_PASSWORD } from '../support/server.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function changePassword(page: Page, oldPassword: string, newPassword: string) {
  await page.getByTestId('profile-old-password').fill(oldPassword);
  await page.getByTestId('profile-new-password').fill(newPassword);
  await page.getByTestId('profile-repeat-password').fill(newPassword);
}

describe('profile', () => {
  it('changes the own password: rules keep save disabled, the old one is checked, the session goes on', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'holder'); // lands on their wagon list (issue 22): the start page does not admit holders
    await page.waitForURL(/\/holder$/);
    await page.getByTestId('menu-profile').click();
    await page.waitForURL(/\/profile$/);
    const save = page.getByTestId('profile-password-save');
    for (const weak of ['kurz1A', 'nurkleinbuchstaben1', 'NURGROSS123', 'OhneZiffern']) {
      await changePassword(page, E2E_PASSWORD, weak);
      await expect(save.isDisabled()).resolves.toBe(true);
    }
    await changePassword(page, E2E_PASSWORD, 'Neues-Passwort9');
    await page.getByTestId('profile-repeat-password').fill('Neues-Passwort8');
    await expect(save.isDisabled()).resolves.toBe(true);
    await changePassword(page, 'Falsches-Alt1', 'Neues-Passwort9');
    await save.click();
    await page.getByText('Das aktuelle Passwort ist nicht korrekt.').waitFor();

    await changePassword(page, E2E_PASSWORD, 'Neues-Passwort9');
    await save.click();
    await page.getByRole('alert').filter({ hasText: 'Ihr Passwort wurde geändert' }).waitFor();
    // Still signed in with the fresh session: a reload keeps the page.
    await page.reload();
    await page.getByTestId('profile-username').waitFor();

    await page.getByTestId('logout').click();
    await signIn(page, 'holder', E2E_PASSWORD);
    await page.getByTestId('login-error').waitFor();
    await signIn(page, 'holder', 'Neues-Passwort9');
    await page.waitForURL(/\/holder$/);
    await page.getByTestId('menu-profile').click();
    await page.waitForURL(/\/profile$/);
    // Put the demo password back for the other tests.
    await changePassword(page, 'Neues-Passwort9', E2E_PASSWORD);
    await save.click();
    await page.getByRole('alert').filter({ hasText: 'Ihr Passwort wurde geändert' }).waitFor();
    await context.close();
  });
});
