// The number scanner's engine as built and served (the camera dialog's own e2e drives it through the UI): its
// files are in the build and precached by the service worker, the server sends them with the right types, no
// screen loads them before the camera opens, and the engine reads generated frames in Chromium, offline, under the
// app's CSP, with nothing fetched from elsewhere.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NumberScanner, ScanReading } from '../../apps/web/src/features/scan/types.ts';
import { AIM, renderScanPicture, type ScanPictureSpec } from '../../bench/src/scan-pictures.ts';
import {
  baseUrl,
  launchBrowser,
  newContext,
  serviceWorkerReady,
  signIn,
  takeCspViolations,
} from '../support/browser.ts';

const dist = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
const SCAN_FILES = [
  'worker.min.js',
  'tesseract-core-simd-lstm.js',
  'tesseract-core-simd-lstm.wasm',
  'eng.traineddata.gz',
  'zxing_reader.wasm',
];

/** The build's scanner folder (assets/scan-<hash>) and the engine's chunk, from the build's manifest. */
function builtScanner(): { folder: string; engine: string } {
  const folders = readdirSync(path.join(dist, 'assets')).filter((name) => /^scan-[0-9a-f]{12}$/.test(name));
  expect(folders).toHaveLength(1);
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string }
  >;
  const engine = manifest['src/features/scan/engine.ts']?.file;
  expect(engine).toBeDefined();
  return { folder: `assets/${folders[0]!}`, engine: engine! };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the number scanner as built', () => {
  it('ships its worker, core, model and barcode reader, and the service worker precaches them', () => {
    const { folder, engine } = builtScanner();
    expect(
      readdirSync(path.join(dist, folder))
        .filter((name) => !/\.(br|gz)$/.test(name) || name.endsWith('.traineddata.gz'))
        .sort(),
    ).toEqual([...SCAN_FILES].sort());
    const serviceWorker = readFileSync(path.join(dist, 'sw.js'), 'utf8');
    for (const file of [...SCAN_FILES.map((name) => `${folder}/${name}`), engine]) {
      expect(serviceWorker, file).toContain(`"${file}"`);
    }
  });

  it('is served with the right types, and no screen fetches it before the camera opens', async () => {
    const { folder, engine } = builtScanner();
    const types: Record<string, RegExp> = {
      '.wasm': /^application\/wasm/,
      '.js': /^(text|application)\/javascript/,
      '.gz': /^application\/(gzip|x-gzip|octet-stream)/,
    };
    for (const name of SCAN_FILES) {
      const response = await fetch(`${baseUrl()}/${folder}/${name}`, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toMatch(types[path.extname(name)]!);
      // The model is a gzip file the worker unpacks itself: the server must not announce it as an encoding.
      if (name.endsWith('.gz')) expect(response.headers.get('content-encoding'), name).toBeNull();
      expect(response.headers.get('cache-control'), name).toContain('immutable');
      await response.arrayBuffer();
    }

    const context = await newContext(browser);
    const page = await context.newPage();
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto('/login');
    await signIn(page, 'staff');
    await page.getByTestId('home-welcome').waitFor();
    // The order list, where numbers are searched and typed.
    await page.getByTestId('menu-orders').click();
    await page.getByTestId('orders-table').waitFor();
    expect(fetched.filter((url) => url.includes('/assets/scan-') || url === `/${engine}`)).toEqual([]);
    await context.close();
  });

  it('reads a painted number and a QR code offline in Chromium under the CSP, fetching only from VERS', async () => {
    const { engine } = builtScanner();
    const context = await newContext(browser);
    const painter = await context.newPage();
    const painted: ScanPictureSpec = {
      kind: 'text',
      digits: '318066501236',
      layout: 'hyphen',
      font: 'bold "DejaVu Sans"',
      size: 56,
      paint: 'light',
      blur: 0.5,
      rotate: 2,
      shear: 0,
      noise: 8,
      occlusion: 0,
      exposure: 1,
      dx: 0,
      dy: 0,
    };
    const qr: ScanPictureSpec = {
      kind: 'qr',
      digits: '218124712173',
      text: '21 81 2471 217-3',
      size: 240,
      rotate: 5,
      blur: 0,
      noise: 5,
      exposure: 1,
    };
    const wrong: ScanPictureSpec = { ...painted, digits: '318066501237' };
    const pictures = await Promise.all([painted, qr, wrong].map((spec) => renderScanPicture(painter, spec)));
    await painter.close();

    const page = await context.newPage();
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    // Offline, after one visit: the engine, its worker, .wasm files and model come from the service worker's cache.
    await serviceWorkerReady(page);
    await context.setOffline(true);
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    // Imported by an expression given as text: vitest rewrites an import() written in this file for node.
    await page.evaluate(`import('/${engine}').then((engine) => { window.scanEngine = engine; })`);
    const readings = await page.evaluate(
      async ({ pictures, aim }) => {
        const engine = (window as unknown as { scanEngine: { createNumberScanner(): Promise<NumberScanner> } })
          .scanEngine;
        const scanner = await engine.createNumberScanner();
        const results: ScanReading[] = [];
        for (const base64 of pictures) {
          const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
          const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
          results.push(await scanner.read(bitmap, aim));
          bitmap.close();
        }
        await scanner.dispose();
        return results;
      },
      { pictures: pictures.map((png) => png.toString('base64')), aim: AIM },
    );
    expect(readings).toEqual([
      { kind: 'number', digits: '318066501236', source: 'text' },
      { kind: 'number', digits: '218124712173', source: 'code' },
      { kind: 'nothing', reason: 'checkDigit' },
    ]);
    expect([...origins]).toEqual([new URL(baseUrl()).origin]);
    expect(takeCspViolations()).toEqual([]);
    await context.close();
  });
});
