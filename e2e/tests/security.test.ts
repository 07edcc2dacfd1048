import { STORAGE_KEYS } from '@vers/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signIn, takeCspViolations } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('security headers in the browser', () => {
  it('serve the app under a Content-Security-Policy that refuses a script the app did not ship', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const response = await page.goto('/login');
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    await page.getByTestId('login-submit').waitFor();
    expect(takeCspViolations()).toEqual([]);

    // What an injected script would do: the browser refuses it, and the check every e2e test runs sees it.
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      // An inline script runs as it is inserted, or never.
      document.head.append(script);
      return (window as unknown as { injected?: boolean }).injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => takeCspViolations().length).toBeGreaterThan(0);
    await context.close();
  });

  it('does not let another page frame the app', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setContent(`<iframe id="vers" src="${baseUrl()}/login" width="800" height="600"></iframe>`);
    // The refusal is reported as a violation, here on purpose.
    const violations: string[] = [];
    await expect
      .poll(() => {
        violations.push(...takeCspViolations());
        return violations.some((violation) => violation.includes('frame-ancestors'));
      })
      .toBe(true);
    const framed = page.frames().find((frame) => frame !== page.mainFrame());
    // The frame's document never becomes the app: Chromium shows its error page instead.
    const hasApp = framed ? await framed.locator('[data-testid="login-submit"]').count() : 0;
    expect(hasApp).toBe(0);
    await context.close();
  });

  it('signing out ends the token on the server, not only in the browser', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('menu').waitFor();
    const token = await page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? '{}').token as string,
      STORAGE_KEYS.user,
    );
    const siteId = () => fetch(`${baseUrl()}/api/v1/auth/siteId`, { headers: { authorization: `Bearer ${token}` } });
    expect((await siteId()).status).toBe(200);
    await page.getByTestId('logout').click();
    await page.getByTestId('login-submit').waitFor();
    await expect.poll(async () => (await siteId()).status).toBe(401);
    await context.close();
  });
});
