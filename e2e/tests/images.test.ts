import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, signedInPage } from '../support/browser.ts';
import { apiToken, createOrderViaApi } from '../support/orders.ts';
import { checkDigit } from '@vers/domain';

let browser: Browser;
beforeAll(async () => {
  // Chromium's fake camera: a moving test picture, allowed without asking.
  browser = await launchBrowser(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
});
afterAll(async () => {
  await browser?.close();
});

const wheelsetNumber = (i: number) => {
  const first11 = `4${String(6_000_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

/** A context without the service worker: these tests intercept API calls, which must come from the page. */
function context(): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: baseUrl(),
    locale: 'de-DE',
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
    permissions: ['camera'],
  });
}

/** The order's pictures as the server lists them. */
async function serverPictures(orderId: string): Promise<{ id: string }[]> {
  const res = await fetch(`${baseUrl()}/api/v1/assets/order/${orderId}?type=PICTURE&status=AVAILABLE`, {
    headers: { authorization: `Bearer ${await apiToken('staff')}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string }[];
}

/** How the device holds a picture's full PNG: as a Blob, as base64 text (older rows), or not at all. */
function heldPicture(page: Page, imageId: string): Promise<'blob' | 'text' | 'none' | 'no row'> {
  return page.evaluate(
    (imageId) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('versdb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('orderImages').objectStore('orderImages').get(imageId);
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            open.result.close();
            const row = request.result as { data?: unknown } | undefined;
            if (!row) resolve('no row');
            else if (row.data instanceof Blob) resolve('blob');
            else resolve(typeof row.data === 'string' ? 'text' : 'none');
          };
        };
      }),
    imageId,
  );
}

describe('pictures of an order', () => {
  it('are taken offline, kept, uploaded when online, seen on another device, and deleted although the server fails once', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i) })) },
    });
    const first = await context();
    const page = await signedInPage(first, 'staff');
    // Online first through the editor, the images screen and the camera, so their code is loaded: offline these
    // tests have no service worker to serve it (they intercept API calls, which a worker would hide).
    await page.goto(`/orders/wagon/${orderId}/brake`);
    await page.getByTestId('order-footer').waitFor();
    await page.getByTestId('open-images').click();
    await page.getByTestId('images-empty').waitFor();
    await page.goBack();
    await page.getByTestId('order-footer').waitFor();
    await page.getByTestId('open-camera').click();
    await page.waitForURL(new RegExp(`/camera/wagon/${orderId}/brake$`));
    await expect.poll(() => page.getByTestId('camera-page').getAttribute('data-mode')).toBe('live');

    await first.setOffline(true);
    await page.getByTestId('camera-take').click();
    await page.getByTestId('camera-preview').waitFor();
    // Taken again, then kept: back to the tab it was taken from.
    await page.getByTestId('camera-retake').click();
    await page.getByTestId('camera-take').click();
    await page.getByTestId('camera-keep').click();
    await page.waitForURL(new RegExp(`/orders/wagon/${orderId}/brake$`));

    await page.getByTestId('open-images').click();
    const card = page.getByTestId('image-card');
    await expect.poll(() => card.count()).toBe(1);
    await expect(card.getAttribute('data-sent')).resolves.toBe('0');
    await card.getByTestId('image-unsent').waitFor();
    await expect(card.getByTestId('image-date').textContent()).resolves.toMatch(/\d\d\.\d\d\.\d\d \d\d:\d\d/);
    const imageId = await card.getAttribute('data-id');
    expect(await serverPictures(orderId)).toEqual([]);
    // Kept as a Blob: the list reads a reference to it, not its bytes.
    expect(await heldPicture(page, imageId!)).toBe('blob');

    // Nothing unsent is lost across a reload: online again, the first upload fails (503), and the page is loaded
    // anew with the picture still unsent; then the scheduler uploads it; the server's id is the picture's own.
    let refusedUploads = 0;
    await first.route('**/api/v1/assets/upload', async (route) => {
      if (refusedUploads > 0) return route.continue();
      refusedUploads += 1;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
    });
    await first.setOffline(false);
    await expect.poll(() => refusedUploads).toBe(1);
    expect(await serverPictures(orderId)).toEqual([]);
    await page.reload();
    await expect.poll(() => card.count()).toBe(1);
    await expect(card.getAttribute('data-id')).resolves.toBe(imageId);
    await expect.poll(() => card.getAttribute('data-sent')).toBe('1');
    await expect.poll(async () => (await serverPictures(orderId)).map((p) => p.id)).toEqual([imageId]);

    // The list shows the device's small JPEG, which went to the server with the picture.
    const thumb = await card.locator('img').getAttribute('src');
    expect(thumb).toMatch(/^data:image\/jpeg;base64,/);
    const onServer = await fetch(`${baseUrl()}/api/v1/assets/thumbnail/${imageId}`, {
      headers: { authorization: `Bearer ${await apiToken('staff')}` },
    });
    expect(await onServer.json()).toMatchObject({ mime: 'image/jpeg', base64: thumb!.split(',')[1] });

    // Another device lists it with its thumbnail only; the full picture comes from the server when opened large.
    const second = await context();
    const other = await signedInPage(second, 'werkadmin');
    await other.goto(`/images/${orderId}`);
    await expect.poll(() => other.getByTestId('image-card').count()).toBe(1);
    const otherCard = other.getByTestId('image-card');
    await expect(otherCard.getAttribute('data-id')).resolves.toBe(imageId);
    await expect.poll(() => otherCard.locator('img').getAttribute('src')).toBe(thumb);
    expect(await heldPicture(other, imageId!)).toBe('none');
    await otherCard.locator('button').first().click();
    const large = other.getByTestId('image-large').locator('img[data-full="true"]');
    await large.waitFor();
    // The full PNG of Chromium's fake camera, larger than the thumbnail; kept on that device from now on.
    const width = await large.evaluate((img: HTMLImageElement) => img.naturalWidth);
    expect(width).toBeGreaterThan(320);
    expect(await heldPicture(other, imageId!)).toBe('blob');
    await second.close();

    // Deleting: the server fails the first time; the picture leaves the list at once and the retry deletes it.
    let failed = 0;
    await first.route('**/api/v1/assets/*', async (route) => {
      if (route.request().method() === 'DELETE' && failed === 0) {
        failed += 1;
        return route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
      }
      return route.continue();
    });
    await card.getByTestId('image-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => card.count()).toBe(0);
    // Hidden at once; the failed call comes right after.
    await expect.poll(() => failed).toBe(1);
    await expect.poll(async () => (await serverPictures(orderId)).length).toBe(0);
    await first.close();
  });

  it('takes only PNG files: a JPEG renamed .png is refused with a message', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i + 10) })) },
    });
    const ctx = await context();
    const page = await signedInPage(ctx, 'staff');
    await page.goto(`/camera/wagon/${orderId}/basedata`);
    await page.getByTestId('camera-page').waitFor();
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    await page.getByTestId('camera-file').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: jpeg });
    await expect(page.getByTestId('camera-problem').textContent()).resolves.toContain('PNG-Bilder');
    await expect(page.getByTestId('camera-preview').count()).resolves.toBe(0);
    await ctx.close();
  });

  it('opened at its address, a list longer than its first screen shows how many and every picture, newest first', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '21 81 2471 217-3',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i + 20) })) },
    });
    const ctx = await context();
    const page = await signedInPage(ctx, 'staff');
    // 15 pictures kept on this device (more than the first screen's 12), added in a shuffled order of capture
    // times; one waits to be deleted. Owned by nobody signed in here, so no exchange uploads or drops them.
    const minutes = [7, 2, 14, 0, 9, 11, 4, 13, 1, 8, 3, 12, 6, 10, 5];
    const ids = await page.evaluate(
      async ({ orderId, minutes }) => {
        // A 1x1 PNG.
        const base64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open('versdb');
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        const rows = minutes.map((minute) => ({
          imageId: crypto.randomUUID(),
          orderId,
          tabName: 'basedata',
          name: `minute-${minute}.png`,
          data: new Blob([bytes], { type: 'image/png' }),
          thumb: `data:image/png;base64,${base64}`,
          size: bytes.length,
          capturedDate: new Date(Date.UTC(2026, 10, 27, 8, minute)).toISOString(),
          sent: 0,
          toBeDeleted: minute === 13 ? 1 : 0,
          owner: -1,
        }));
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('orderImages', 'readwrite');
          for (const row of rows) tx.objectStore('orderImages').add(row);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
        return rows
          .filter((row) => row.toBeDeleted === 0)
          .sort((a, b) => (a.capturedDate < b.capturedDate ? 1 : -1))
          .map((row) => row.imageId);
      },
      { orderId, minutes },
    );
    expect(ids).toHaveLength(14);

    await page.goto(`/images/${orderId}`);
    const list = page.getByTestId('images-list');
    await expect.poll(() => list.getAttribute('data-count')).toBe('14');
    const cards = page.getByTestId('image-card');
    await expect.poll(() => cards.count()).toBe(14);
    expect(await cards.evaluateAll((found) => found.map((card) => card.getAttribute('data-id')))).toEqual(ids);
    await ctx.close();
  });
});
