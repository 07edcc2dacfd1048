import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { inject } from 'vitest';
import { E2E_PASSWORD } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the product started by global-setup.ts. */
    baseUrl: string;
  }
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const cspViolations: string[] = [];

/**
 * The Content-Security-Policy violations pages of this process reported since the last call, and forgets them.
 * Chromium reports each refused script, style, image or connection as a console error naming the policy.
 */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

function watchCsp(page: Page) {
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(`${page.url()}: ${message.text()}`);
  });
}

/**
 * How long a Playwright action or wait (a click, `waitFor`, `waitForURL`) waits for its state: generous, so that a busy
 * machine slows the tests without failing them (vitest.config.ts holds the other bounds).
 */
export const ACTION_WAIT_MS = 120_000;

/**
 * Debian's Chromium, headless, with the flags this closed network needs (and any the caller adds). Every page
 * of every context it opens is watched for CSP violations (`takeCspViolations`).
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const browser = await launchChromium(extraArgs);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(ACTION_WAIT_MS);
    context.on('page', watchCsp);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(ACTION_WAIT_MS);
    watchCsp(page);
    return page;
  };
  return browser;
}

/** The flags Chromium needs on this closed network, without a GPU, as root. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

function launchChromium(extraArgs: readonly string[]): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...extraArgs, ...CHROMIUM_FLAGS] });
}

export const baseUrl = () => inject('baseUrl');

/** A fresh browser profile (empty storage) with a given browser language. */
export async function newContext(browser: Browser, locale = 'de-DE'): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseUrl(), locale, viewport: { width: 1280, height: 800 } });
}

export async function signIn(page: Page, username: string, password = E2E_PASSWORD) {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Waits until the service worker has cached the app (its install ends with the precache) and is active. */
export async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state;
  });
}

/** A new page of `context`, signed in as `username` and showing the menu. */
export async function signedInPage(context: BrowserContext, username: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, username);
  await page.getByTestId('menu').waitFor();
  return page;
}

export async function menuEntries(page: Page): Promise<string[]> {
  const entries = await page
    .getByTestId('menu')
    .locator('[data-testid^="menu-"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''));
  return entries.map((id) => id.replace(/^menu-/, ''));
}
