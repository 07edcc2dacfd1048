// Gzip size of the JavaScript the login screen loads (measured in Chromium: every script the page fetched),
// and of all JavaScript of the built app. Needs `npm run build` first.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../../e2e/support/browser.ts';
import type { RunningProduct } from '../../e2e/support/server.ts';

const distAssets = new URL('../../apps/web/dist/assets/', import.meta.url).pathname;
const gzipKb = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length / 1024;

export const LOGIN_BUDGET_KB = 250;

export async function measureBundles(product: RunningProduct) {
  const browser = await launchBrowser();
  const scripts = new Map<string, number>();
  try {
    const context = await browser.newContext({ baseURL: product.url });
    const page = await context.newPage();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.set(response.url(), gzipKb(await response.body()));
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByTestId('login-submit').waitFor();
    await context.close();
  } finally {
    await browser.close();
  }
  const loginKb = [...scripts.values()].reduce((a, b) => a + b, 0);
  const all = readdirSync(distAssets).filter((f) => f.endsWith('.js'));
  const appKb = all.reduce((sum, f) => sum + gzipKb(readFileSync(path.join(distAssets, f))), 0);
  return { loginKb, loginScripts: scripts.size, appKb, appScripts: all.length };
}
