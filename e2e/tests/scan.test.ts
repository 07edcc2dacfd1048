import { checkDigit, formatVehicleNumber } from '@vers/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { baseUrl, launchBrowser, serviceWorkerReady, signedInPage } from '../support/browser.ts';
import { type FakeCamera, launchWithFakeCamera, paintedNumber } from '../support/fake-camera.ts';
import { createOrderViaApi } from '../support/orders.ts';

/** A valid number from 11 digits; numbers of this file start 338066 / 438066, random per run, unlike other files'. */
const withCheck = (first11: string) => `${first11}${checkDigit(first11)}`;
const run = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
const wagonNumber = (n: number) => withCheck(`338066${run}${n}`);
const wheelsetNumber = (n: number) => withCheck(`438066${run}${n}`);
/** The same number with a check digit one off: never to be offered. */
const wrongCheck = (valid: string) => `${valid.slice(0, 11)}${(Number(valid[11]) + 1) % 10}`;

let camera: FakeCamera;
beforeAll(async () => {
  camera = await launchWithFakeCamera(paintedNumber(wagonNumber(0)));
});
afterAll(async () => {
  await camera?.close();
});

/**
 * A signed-in page whose every camera stream is kept in `window.scanStreams`, so that a test can see that closing
 * the dialog stopped the camera. The camera itself is Chromium's fake one, unchanged.
 */
async function cameraPage(
  browser: Browser,
  options: { locale?: string; permissions?: string[]; username?: string } = {},
) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale: options.locale ?? 'de-DE',
    viewport: { width: 1280, height: 800 },
    permissions: options.permissions ?? ['camera'],
  });
  await context.addInitScript(() => {
    const streams: MediaStream[] = [];
    (window as unknown as { scanStreams: MediaStream[] }).scanStreams = streams;
    const devices = navigator.mediaDevices;
    if (!devices) return;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      streams.push(stream);
      return stream;
    };
  });
  const page = await signedInPage(context, options.username ?? 'staff');
  return { context, page };
}

/** Every camera track the page opened has ended. */
const camerasStopped = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { scanStreams: MediaStream[] }).scanStreams
      .flatMap((stream) => stream.getTracks())
      .every((track) => track.readyState === 'ended'),
  );

/** Presses a field's scan button and waits for the number the dialog offers; answers the dialog. */
async function scanOffered(page: Page, buttonTestId: string, digits: string) {
  await page.getByTestId(buttonTestId).click();
  const dialog = page.getByTestId('scan-dialog');
  await dialog.waitFor();
  const offered = dialog.getByTestId('scan-number');
  await offered.waitFor().catch(async (error: unknown) => {
    throw new Error(`no number offered; the dialog: ${await dialogState(dialog)}`, { cause: error });
  });
  await expect(offered.getAttribute('data-digits')).resolves.toBe(digits);
  return dialog;
}

/** What the dialog shows, for a failure's message. */
async function dialogState(dialog: Locator): Promise<string> {
  const status = dialog.getByTestId('scan-status');
  return [
    `state ${await dialog.getAttribute('data-state', { timeout: 1000 }).catch(() => '?')}`,
    `reads ${await dialog.getAttribute('data-reads', { timeout: 1000 }).catch(() => '?')}`,
    `reason ${await status.getAttribute('data-reason', { timeout: 1000 }).catch(() => '-')}`,
    `problem ${await dialog
      .getByTestId('scan-problem')
      .getAttribute('data-problem', { timeout: 1000 })
      .catch(() => '-')}`,
  ].join(', ');
}

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

describe('scanning a vehicle number with the camera', () => {
  it('fills add order’s wagon number and a wheelset number after confirmation; the order is saved with them', async () => {
    const wagon = wagonNumber(0);
    const wheelset = wheelsetNumber(0);
    const { context, page } = await cameraPage(await camera.restart(paintedNumber(wagon)));
    await page.goto('/orders/add');

    const dialog = await scanOffered(page, 'order-scan', wagon);
    // Large, in its printed groups, the check digit marked right; nothing filled before "use".
    await expect(dialog.getByTestId('scan-number').textContent()).resolves.toContain(formatVehicleNumber(wagon));
    await expect(dialog.getByTestId('scan-check-digit').textContent()).resolves.toBe(wagon.slice(-1));
    await expect(dialog.textContent()).resolves.toContain(`Prüfziffer ${wagon.slice(-1)} stimmt`);
    await expect(page.getByTestId('order-number').inputValue()).resolves.toBe('');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByTestId('scan-use').click();
    await dialog.waitFor({ state: 'detached' });
    // As if typed and left: the printed form, valid, and the focus back in the field.
    await expect(page.getByTestId('order-number').inputValue()).resolves.toBe(formatVehicleNumber(wagon));
    await expect(page.getByTestId('order-number').getAttribute('aria-invalid')).resolves.toBe('false');
    await expect.poll(() => focusedTestId(page)).toBe('order-number');
    await expect.poll(() => camerasStopped(page)).toBe(true);

    // Another picture in front of the camera: a wheelset's number, into the first row.
    await camera.show(paintedNumber(wheelset));
    await (await scanOffered(page, 'wheelset-scan-0', wheelset)).getByTestId('scan-use').click();
    await expect.poll(() => page.getByTestId('wheelset-number-0').inputValue()).toBe(formatVehicleNumber(wheelset));
    await expect.poll(() => focusedTestId(page)).toBe('wheelset-number-0');
    for (let i = 1; i < 4; i++) await page.getByTestId(`wheelset-number-${i}`).fill(wheelsetNumber(i));
    await page.getByTestId('order-external').fill(`E2E-SCAN-${run}`);
    await page.getByTestId('order-save').click();
    await page.waitForURL(/\/orders$/);

    // Saved with both: the list finds the order by the wheelset's number and shows the wagon's.
    await page.getByTestId('orders-search').fill(wheelset);
    const rows = page.getByTestId('orders-table').locator('tbody tr[data-testid^="order-row-"]');
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain(formatVehicleNumber(wagon));
    await context.close();
  });

  it('fills the order search, and the list shows that wagon’s order only', async () => {
    const wagon = wagonNumber(1);
    await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: wagon,
      wagon: { wheelsetsOutgoing: [4, 5, 6, 7].map((i) => ({ number: wheelsetNumber(i) })) },
    });
    const { context, page } = await cameraPage(await camera.restart(paintedNumber(wagon)));
    await page.goto('/orders');
    const rows = page.getByTestId('orders-table').locator('tbody tr[data-testid^="order-row-"]');
    await rows.first().waitFor();

    await (await scanOffered(page, 'orders-search-scan', wagon)).getByTestId('scan-use').click();
    await expect(page.getByTestId('orders-search').inputValue()).resolves.toBe(formatVehicleNumber(wagon));
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain(formatVehicleNumber(wagon));
    await context.close();
  });

  it('fills the number of a wheelset to mount in the swap dialog, which mounts it', async () => {
    const mounted = wheelsetNumber(8);
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: wagonNumber(5),
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: withCheck(`43806${run}${i}9`) })) },
    });
    const { context, page } = await cameraPage(await camera.restart(paintedNumber(mounted)));
    await page.goto(`/orders/wagon/${orderId}/wheelsets-2`);
    await page.getByTestId('wheelset-position').waitFor();
    await page.getByTestId('wheelset-mount').click();
    await page.getByTestId('wheelset-mount-dialog').waitFor();

    await (await scanOffered(page, 'wheelset-mount-scan', mounted)).getByTestId('scan-use').click();
    // Checked as on leaving the field, and the focus back in it, in the swap's dialog.
    await expect.poll(() => page.getByTestId('wheelset-number').inputValue()).toBe(formatVehicleNumber(mounted));
    await expect.poll(() => focusedTestId(page)).toBe('wheelset-number');
    await page.getByTestId('wheelset-mount-save').click();
    await page.getByTestId('wheelset-mount-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('wheelset-mounted').getAttribute('data-number')).toBe(mounted);
    await context.close();
  });

  it('works offline: the reader comes from the service worker’s cache', async () => {
    const wagon = wagonNumber(2);
    const { context, page } = await cameraPage(await camera.restart(paintedNumber(wagon)));
    await serviceWorkerReady(page);
    await context.setOffline(true);
    await page.goto('/orders/add');
    await page.getByTestId('offline-banner').waitFor();
    await expect(page.evaluate(() => navigator.serviceWorker.controller !== null)).resolves.toBe(true);

    await (await scanOffered(page, 'order-scan', wagon)).getByTestId('scan-use').click();
    await expect(page.getByTestId('order-number').inputValue()).resolves.toBe(formatVehicleNumber(wagon));
    await context.close();
  });

  it('never offers a number whose check digit is wrong, and says why', async () => {
    const wrong = wrongCheck(wagonNumber(3));
    const { context, page } = await cameraPage(await camera.restart(paintedNumber(wrong)));
    await page.goto('/orders/add');
    await page.getByTestId('order-scan').click();
    const dialog = page.getByTestId('scan-dialog');
    await dialog
      .locator('[data-testid="scan-status"][data-reason="checkDigit"]')
      .waitFor()
      .catch(async (error: unknown) => {
        throw new Error(`no wrong check digit said; the dialog: ${await dialogState(dialog)}`, { cause: error });
      });
    // Several frames read, and the dialog still reading: a number offered would have ended the reading.
    await expect.poll(async () => Number(await dialog.getAttribute('data-reads'))).toBeGreaterThanOrEqual(4);
    await expect(dialog.getAttribute('data-state')).resolves.toBe('live');
    await expect(dialog.getByTestId('scan-number').count()).resolves.toBe(0);
    await expect(dialog.getByTestId('scan-use').count()).resolves.toBe(0);
    await expect(dialog.getByTestId('scan-status').textContent()).resolves.toContain('Prüfziffer stimmt nicht');

    // "Type it instead": the field is empty, focused, and takes typing.
    await dialog.getByTestId('scan-close').click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.getByTestId('order-number').inputValue()).resolves.toBe('');
    await expect.poll(() => focusedTestId(page)).toBe('order-number');
    await expect.poll(() => camerasStopped(page)).toBe(true);
    await page.keyboard.type(wagonNumber(3));
    await expect(page.getByTestId('order-number').inputValue()).resolves.toBe(wagonNumber(3));
    await context.close();
  });
});

describe('a reader that cannot load', () => {
  /** A page that fetches from the server only (no service worker), with the files matching `blocked` refused. */
  async function withoutFiles(blocked: string) {
    const context = await camera.browser.newContext({
      baseURL: baseUrl(),
      locale: 'de-DE',
      viewport: { width: 1280, height: 800 },
      permissions: ['camera'],
      serviceWorkers: 'block',
    });
    await context.route(blocked, (route) => route.abort('internetdisconnected'));
    const page = await signedInPage(context, 'staff');
    await page.goto('/orders/add');
    return { context, page };
  }

  it('stops the camera it had started and says the reader could not start; the field stays usable', async () => {
    const { context, page } = await withoutFiles('**/assets/scan-engine-*.js');
    await page.evaluate(() => {
      const streams: MediaStream[] = [];
      (window as unknown as { scanStreams: MediaStream[] }).scanStreams = streams;
      const devices = navigator.mediaDevices;
      const original = devices.getUserMedia.bind(devices);
      devices.getUserMedia = async (constraints) => {
        const stream = await original(constraints);
        streams.push(stream);
        return stream;
      };
    });
    await page.getByTestId('order-scan').click();
    const problem = page.getByTestId('scan-problem');
    await problem.waitFor();
    await expect(problem.getAttribute('data-problem')).resolves.toBe('engine');
    // The camera was asked for and is off again: no light left on while nothing reads.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { scanStreams: MediaStream[] }).scanStreams.length))
      .toBeGreaterThan(0);
    await expect.poll(() => camerasStopped(page)).toBe(true);
    await page.getByTestId('scan-close').click();
    await expect.poll(() => focusedTestId(page)).toBe('order-number');
    await context.close();
  });

  it('closes at once when the dialog itself cannot load, keeps the screen, and the next press opens it', async () => {
    const blocked = '**/assets/ScanDialog-*.js';
    const { context, page } = await withoutFiles(blocked);
    await page.getByTestId('order-external').fill('kept');
    await page.getByTestId('order-scan').click();
    await expect.poll(() => focusedTestId(page)).toBe('order-number');
    await expect(page.getByTestId('scan-dialog').count()).resolves.toBe(0);
    // The screen is the same form, with what was typed: no error page.
    await expect(page.getByTestId('order-external').inputValue()).resolves.toBe('kept');
    await context.unroute(blocked);
    await page.getByTestId('order-scan').click();
    await page.getByTestId('scan-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('scan-dialog').waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('scanning without a camera', () => {
  let browser: Browser;
  beforeAll(async () => {
    // A camera that asks: no fake permission prompt, so a context without the permission is refused it.
    browser = await launchBrowser(['--use-fake-device-for-media-stream']);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const openRefused = async (locale: string): Promise<{ context: BrowserContext; page: Page }> => {
    const opened = await cameraPage(browser, { locale, permissions: [] });
    await opened.page.goto('/orders/add');
    await opened.page.getByTestId('order-scan').click();
    return opened;
  };

  it('says that the camera was refused, and the field stays usable', async () => {
    const { context, page } = await openRefused('de-DE');
    const problem = page.getByTestId('scan-problem');
    await problem.waitFor();
    await expect(problem.getAttribute('data-problem')).resolves.toBe('denied');
    await expect(problem.textContent()).resolves.toContain('Berechtigung wurde verweigert');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('scan-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => focusedTestId(page)).toBe('order-number');
    await page.keyboard.type(wagonNumber(4));
    await page.getByTestId('order-external').click();
    await expect.poll(() => page.getByTestId('order-number').inputValue()).toBe(formatVehicleNumber(wagonNumber(4)));
    await context.close();
  });

  it('says that there is no camera on a device without one', async () => {
    // Chromium's fake capture with no device at all (whatever cameras the machine has), the permission given.
    const bare = await launchBrowser(['--use-fake-device-for-media-stream=device-count=0']);
    try {
      const { context, page } = await cameraPage(bare);
      await page.goto('/orders/add');
      await page.getByTestId('order-scan').click();
      const problem = page.getByTestId('scan-problem');
      await problem.waitFor();
      await expect(problem.getAttribute('data-problem')).resolves.toBe('noCamera');
      await expect(problem.textContent()).resolves.toContain('keine Kamera gefunden');
      await page.getByTestId('scan-close').click();
      await expect.poll(() => focusedTestId(page)).toBe('order-number');
      await context.close();
    } finally {
      await bare.close();
    }
  });

  it('says it in the user’s language', async () => {
    const { context, page } = await openRefused('en-GB');
    await expect(page.getByTestId('scan-problem').textContent()).resolves.toContain('the permission was refused');
    await expect(page.getByTestId('scan-close').textContent()).resolves.toBe('Type it instead');
    await context.close();
  });
});
