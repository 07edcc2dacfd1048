import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, signIn } from '../support/browser.ts';

/**
 * A server that fails is not a lost session (issue 20): a 502 (or 503, 504) on a page's call shows one error with a
 * retry on that page, the user stays signed in, nothing bounces between the page and the sign-in, and the retry
 * recovers once the server answers again.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 412, height: 915 } } as const;
type Viewport = keyof typeof VIEWPORTS;

function context(locale: string, viewport: Viewport): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseUrl(), locale, viewport: VIEWPORTS[viewport] });
}

/**
 * Every path the app's router went to, in order (pushState, replaceState and full loads), kept in the page: a
 * bounce to the sign-in shows up as '/login' in it, however briefly it stayed.
 */
const RECORD_PATHS = () => {
  const record = () => {
    const paths = JSON.parse(sessionStorage.getItem('e2e-paths') ?? '[]') as string[];
    paths.push(location.pathname);
    sessionStorage.setItem('e2e-paths', JSON.stringify(paths));
  };
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name].bind(history);
    history[name] = (...args: Parameters<History['pushState']>) => {
      original(...args);
      record();
    };
  }
  record();
};

const pathsVisited = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e-paths') ?? '[]') as string[]);

/** Signs in on /login (at any width: no menu is awaited) and waits for the signed-in start. */
async function signInAs(page: Page, username: string) {
  await page.goto('/login');
  await signIn(page, username);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  // From here on, a path '/login' is a bounce.
  await page.evaluate(() => sessionStorage.removeItem('e2e-paths'));
}

describe.each([
  ['de-DE', 'desktop'],
  ['en-GB', 'phone'],
] as const)('a failing server (%s, %s)', (locale, viewport) => {
  it('shows the users page an error with a retry on a 502, keeps the session, no bounce to the sign-in', async () => {
    const ctx = await context(locale, viewport);
    await ctx.addInitScript(RECORD_PATHS);
    const page = await ctx.newPage();
    await signInAs(page, 'werkadmin');
    let failing = true;
    let calls = 0;
    await page.route('**/api/v1/users/current*', async (route) => {
      calls += 1;
      if (failing) await route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
      else await route.continue();
    });
    // Time runs on the page's own clock: what it would do a second (or a minute) later happens at once.
    await page.clock.install();
    await page.goto('/users');
    await page.getByTestId('users-load-error').waitFor();
    await page.clock.runFor(60_000);
    expect(new URL(page.url()).pathname).toBe('/users');
    expect((await pathsVisited(page)).filter((p) => p === '/login')).toEqual([]);
    expect(calls).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('vers-user'))).not.toBeNull();

    failing = false;
    await page.getByTestId('users-load-error').getByRole('button').click();
    await page.getByTestId('user-row-werkadmin').waitFor();
    expect(await page.getByTestId('users-load-error').count()).toBe(0);
    expect((await pathsVisited(page)).filter((p) => p === '/login')).toEqual([]);
    await ctx.close();
  });
});
