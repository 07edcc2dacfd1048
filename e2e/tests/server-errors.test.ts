import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDigit } from '@vers/domain';
import { baseUrl, launchBrowser, signIn } from '../support/browser.ts';
import { createOrderViaApi } from '../support/orders.ts';

/**
 * A server that fails is not a lost session (issue 20): a 502 (or 503, 504) on a page's call shows one error with a
 * retry on that page, the user stays signed in, nothing bounces between the page and the sign-in, and the retry
 * recovers once the server answers again.
 */

let browser: Browser;
let orderId: string;
beforeAll(async () => {
  browser = await launchBrowser();
  const first11 = `4${String(7_100_000_000).slice(-10)}`;
  orderId = await createOrderViaApi({ type: 'WHEELSET', maintenanceNumber: `${first11}${checkDigit(first11)}` });
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
    await expect(page.getByTestId('users-load-error').textContent()).resolves.toContain(
      locale === 'de-DE' ? 'Die Benutzer konnten nicht geladen werden' : 'The users could not be loaded',
    );
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

interface Screen {
  name: string;
  username: string;
  /** The page, once the user is signed in (their workshop id at hand). */
  path: (workshopId: number) => string;
  /** The call that fails, and how. */
  call: string;
  status: 502 | 503 | 504;
  /** The page's error (it holds the retry button), and what the page shows once the server answers again. */
  error: string;
  recovered: string;
}

/** Every screen that reads its data from the server at opening (issue 20: "check every screen for the same"). */
const SCREENS: Screen[] = [
  {
    name: 'workshop settings',
    username: 'werkadmin',
    path: (id) => `/workshop/${id}`,
    call: '**/api/v1/workshops/*',
    status: 503,
    error: 'workshop-load-error',
    recovered: 'workshop-form',
  },
  {
    name: 'value lists',
    username: 'versadmin',
    path: () => '/defaultoptions',
    call: '**/api/v1/default-options?*',
    status: 504,
    error: 'default-options-load-error',
    recovered: 'default-option-row-ListAuftraggeber',
  },
  {
    name: 'one value list',
    username: 'versadmin',
    path: () => '/defaultoptions/1',
    call: '**/api/v1/default-options/1',
    status: 502,
    error: 'default-option-load-error',
    recovered: 'values-table',
  },
  {
    name: 'documents',
    username: 'staff',
    path: () => `/assets/${orderId}/wheelset`,
    call: '**/api/v1/assets/order/*',
    status: 502,
    error: 'documents-error',
    recovered: 'documents-empty',
  },
];

describe.each(SCREENS)('$name answering $status', (screen) => {
  it('shows one error with a retry, keeps the session, never visits the sign-in, and recovers', async () => {
    const ctx = await context('de-DE', 'desktop');
    await ctx.addInitScript(RECORD_PATHS);
    const page = await ctx.newPage();
    await signInAs(page, screen.username);
    const workshopId = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('vers-user') ?? '{}') as { workshop: { id: number } | null }).workshop?.id,
    );
    let failing = true;
    await page.route(screen.call, async (route) => {
      if (failing) await route.fulfill({ status: screen.status, contentType: 'text/plain', body: 'gateway' });
      else await route.continue();
    });
    await page.clock.install();
    await page.goto(screen.path(workshopId ?? 0));
    const error = page.getByTestId(screen.error);
    await error.waitFor();
    await page.clock.runFor(60_000);
    expect((await pathsVisited(page)).filter((p) => p === '/login')).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('vers-user'))).not.toBeNull();
    expect(await error.count()).toBe(1);

    failing = false;
    await error.getByRole('button', { name: 'Erneut versuchen' }).click();
    await page.getByTestId(screen.recovered).waitFor();
    expect(await page.getByTestId(screen.error).count()).toBe(0);
    expect((await pathsVisited(page)).filter((p) => p === '/login')).toEqual([]);
    await ctx.close();
  });
});

describe('screens that work from the device when the server is away', () => {
  it.each([
    ['the order list', '/orders', '**/api/v1/orders/page*', 'orders-from-device'],
    ['the start page', '/', '**/api/v1/auth/siteId', 'home-welcome'],
  ])('%s on a 502 keeps the session and stays', async (_, path, call, shown) => {
    const ctx = await context('en-GB', 'desktop');
    await ctx.addInitScript(RECORD_PATHS);
    const page = await ctx.newPage();
    await signInAs(page, 'staff');
    let answered = 0;
    await page.route(call, async (route) => {
      answered += 1;
      await route.fulfill({ status: 502, contentType: 'text/plain', body: 'gateway' });
    });
    await page.clock.install();
    await page.goto(path);
    await page.getByTestId(shown).waitFor();
    await expect.poll(() => answered).toBeGreaterThan(0);
    await page.clock.runFor(60_000);
    expect(new URL(page.url()).pathname).toBe(path);
    expect((await pathsVisited(page)).filter((p) => p === '/login')).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('vers-user'))).not.toBeNull();
    await ctx.close();
  });
});

describe('a refusal (403) of a screen’s data', () => {
  it.each([
    ['the users page', 'werkadmin', '/users', '**/api/v1/users/current*', 'users'],
    ['the order list', 'staff', '/orders', '**/api/v1/orders/page*', 'orders'],
  ])('%s says the rights message, not "could not be loaded"', async (_, username, path, call, prefix) => {
    const ctx = await context('de-DE', 'desktop');
    const page = await ctx.newPage();
    await signInAs(page, username);
    await page.route(call, (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 403, code: 'FORBIDDEN', message: 'Forbidden' }),
      }),
    );
    await page.goto(path);
    await expect(page.getByTestId(`${prefix}-forbidden`).textContent()).resolves.toContain(
      'Sie haben keine ausreichenden Rechte für diese Seite',
    );
    expect(await page.getByTestId(`${prefix}-load-error`).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(path);
    await ctx.close();
  });
});
