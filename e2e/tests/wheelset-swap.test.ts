import { checkDigit, formatVehicleNumber, type ServerActivity } from '@vers/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { baseUrl, launchBrowser } from '../support/browser.ts';
import { apiToken, createOrderViaApi, openWagonOrder, serverValue } from '../support/orders.ts';
import { E2E_PASSWORD } from '../support/server.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Wheelset numbers of this run: a wagon's four, and free ones to mount. */
const run = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
const wheelset = (i: number) => {
  const first11 = `43${run}${String(i).padStart(4, '0')}`;
  return `${first11}${checkDigit(first11)}`;
};
const LIST = '$.Body.Wagen.technicalWaggonOutgoing.Understructure.WheelsetCollection.Wheelset';

async function serverLog(orderId: string): Promise<ServerActivity[]> {
  const res = await fetch(`${baseUrl()}/api/v1/activity/${orderId}`, {
    headers: { authorization: `Bearer ${await apiToken('staff')}` },
  });
  return (await res.json()) as ServerActivity[];
}

async function serverStatus(orderId: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/v1/orders/${orderId}`, {
    headers: { authorization: `Bearer ${await apiToken('staff')}` },
  });
  return ((await res.json()) as { status: string }).status;
}

/** A tablet in landscape, as workshops carry them. */
const TABLET = { width: 1024, height: 768 };

async function openPosition(page: Page, orderId: string, position: number) {
  await page.goto(`/orders/wagon/${orderId}/wheelsets-${position}`);
  await page.getByTestId('wheelset-position').waitFor();
}

const mountedNumber = (page: Page) => page.getByTestId('wheelset-mounted').getAttribute('data-number');

async function mount(page: Page, number: string) {
  await page.getByTestId('wheelset-mount').click();
  await page.getByTestId('wheelset-mount-dialog').waitFor();
  await page.getByTestId('wheelset-number').fill(number);
  await page.getByTestId('wheelset-mount-save').click();
  await page.getByTestId('wheelset-mount-dialog').waitFor({ state: 'detached' });
}

describe('wheelset swap', () => {
  it('staff mount, turn and dismount online, then mount offline; the server gets it once; others see it in the history', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '51 80 0843 001-0',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelset(i) })) },
    });
    const context = await browser.newContext({ baseURL: baseUrl(), locale: 'de-DE', viewport: TABLET });
    const page = await context.newPage();
    await openWagonOrder(page, 'staff', orderId);
    await openPosition(page, orderId, 2);
    await expect.poll(() => mountedNumber(page)).toBe(wheelset(1));
    expect(await axeViolations(page)).toEqual([]);

    // A wrong check digit is told as the field is left, in the user's language; nothing is sent.
    await page.getByTestId('wheelset-mount').click();
    const wrong = `${wheelset(10).slice(0, 11)}${(Number(wheelset(10).at(-1)) + 1) % 10}`;
    await page.getByTestId('wheelset-number').fill(wrong);
    await page.getByTestId('wheelset-number').blur();
    await expect.poll(() => page.getByTestId('wheelset-number').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('wheelset-mount-dialog').getByText('Prüfziffer falsch.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // A correct one is written 2-2-4-3-check.
    await page.getByTestId('wheelset-number').fill(wheelset(10));
    await page.getByTestId('wheelset-number').blur();
    await expect.poll(() => page.getByTestId('wheelset-number').inputValue()).toBe(formatVehicleNumber(wheelset(10)));
    await page.getByTestId('wheelset-mount-save').click();
    await page.getByTestId('wheelset-mount-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => mountedNumber(page), { timeout: 20_000 }).toBe(wheelset(10));
    await expect.poll(() => serverValue(orderId, `${LIST}[1].Wheelsetnumber`)).toBe(wheelset(10));

    await page.getByTestId('wheelset-turn').click();
    await expect
      .poll(() => page.getByTestId('wheelset-direction').getAttribute('data-direction'), { timeout: 20_000 })
      .toBe('TURNED');
    expect(await serverValue(orderId, `${LIST}[1].Direction`)).toBe('TURNED');

    await page.getByTestId('wheelset-dismount').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => mountedNumber(page), { timeout: 20_000 }).toBe('');
    expect(await serverValue(orderId, `${LIST}[1].Wheelsetnumber`)).toBeNull();

    // Offline: the same swap is recorded on the device, shown as unsent.
    const before = (await serverLog(orderId)).length;
    await context.setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    await mount(page, wheelset(11));
    await expect.poll(() => mountedNumber(page)).toBe(wheelset(11));
    const indicator = page.getByTestId('sync-indicator');
    await expect.poll(async () => Number(await indicator.getAttribute('data-unsent'))).toBeGreaterThan(0);
    await page.getByTestId('wheelset-history').click();
    const newest = page.getByTestId('wheelset-history-entry').first();
    await expect.poll(() => newest.getAttribute('data-number')).toBe(wheelset(11));
    await newest.getByTestId('wheelset-history-unsent').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('wheelset-history-close').click();
    expect((await serverLog(orderId)).length).toBe(before);

    // Back online, the scheduler sends it: once, one activity per change.
    await context.setOffline(false);
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
    await expect.poll(async () => indicator.getAttribute('data-unsent'), { timeout: 60_000 }).toBe('0');
    const log = await serverLog(orderId);
    const sent = log.slice(before);
    expect(sent.map((a) => a.k.slice(LIST.length)).sort()).toEqual(
      ['[1].Direction', '[1].MountDate', '[1].Wheelsetnumber'].sort(),
    );
    expect(new Set(log.map((a) => a.id)).size).toBe(log.length);
    expect(await serverValue(orderId, `${LIST}[1].Wheelsetnumber`)).toBe(wheelset(11));
    const author = sent[0]!.au;
    expect(author).toBeTruthy();
    await context.close();

    // Another user on another device sees the wheelset in the position's history, with who mounted it.
    const other = await browser.newContext({ baseURL: baseUrl(), locale: 'de-DE', viewport: TABLET });
    const otherPage = await other.newPage();
    await openWagonOrder(otherPage, 'werkadmin', orderId);
    await openPosition(otherPage, orderId, 2);
    await expect.poll(() => mountedNumber(otherPage), { timeout: 20_000 }).toBe(wheelset(11));
    await otherPage.getByTestId('wheelset-history').click();
    const entries = otherPage.getByTestId('wheelset-history-entry');
    await expect.poll(() => entries.first().getAttribute('data-number')).toBe(wheelset(11));
    expect(await entries.first().getAttribute('data-author')).toBe(author);
    await expect(entries.first().textContent()).resolves.toContain(author);
    // Newest first: the offline mount, the dismount, the turn, the online mount, the wheelset it was created with.
    await expect
      .poll(async () => Promise.all((await entries.all()).map(async (entry) => entry.getAttribute('data-number'))))
      .toEqual([wheelset(11), '', wheelset(10), wheelset(10), wheelset(1)]);
    await other.close();
  });

  it('one device offline and one online mount the same wheelset at two positions: both are kept, both warn and the quality check is refused until one is dismounted', async () => {
    const orderId = await createOrderViaApi({
      type: 'WAGON',
      maintenanceNumber: '51 80 0843 001-0',
      wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelset(30 + i) })) },
    });
    const same = wheelset(40);
    const offlineContext = await browser.newContext({ baseURL: baseUrl(), locale: 'de-DE', viewport: TABLET });
    const offline = await offlineContext.newPage();
    await openWagonOrder(offline, 'staff', orderId);
    await openPosition(offline, orderId, 3);
    await expect.poll(() => mountedNumber(offline)).toBe(wheelset(32));
    await offlineContext.setOffline(true);
    await offline.getByTestId('offline-banner').waitFor();
    // The device knows no other position with that number: its own check lets the mount pass.
    await mount(offline, same);
    await expect.poll(() => mountedNumber(offline)).toBe(same);

    // Meanwhile, online, a colleague mounts the same wheelset at position 4 (in English).
    const onlineContext = await browser.newContext({ baseURL: baseUrl(), locale: 'en-GB', viewport: TABLET });
    const online = await onlineContext.newPage();
    await openWagonOrder(online, 'werkadmin', orderId);
    await openPosition(online, orderId, 4);
    await mount(online, same);
    await expect.poll(() => serverValue(orderId, `${LIST}[3].Wheelsetnumber`), { timeout: 20_000 }).toBe(same);
    expect(await online.getByTestId('wheelset-also-mounted').count()).toBe(0);

    // The offline device comes back: its mount is sent and kept, nothing of either is lost.
    await offlineContext.setOffline(false);
    await offline.getByTestId('offline-banner').waitFor({ state: 'detached' });
    const indicator = offline.getByTestId('sync-indicator');
    await expect.poll(async () => indicator.getAttribute('data-unsent'), { timeout: 60_000 }).toBe('0');
    expect(await serverValue(orderId, `${LIST}[2].Wheelsetnumber`)).toBe(same);
    expect(await serverValue(orderId, `${LIST}[3].Wheelsetnumber`)).toBe(same);

    // Both devices say so at their position, each in its user's language, naming the other position.
    const warning = (page: Page) => page.getByTestId('wheelset-also-mounted');
    await expect.poll(() => warning(offline).getAttribute('data-positions'), { timeout: 60_000 }).toBe('4');
    await expect(warning(offline).textContent()).resolves.toContain('auch an Position 4 eingebaut');
    await expect.poll(() => warning(online).getAttribute('data-positions'), { timeout: 60_000 }).toBe('3');
    await expect(warning(online).textContent()).resolves.toContain('also mounted at position 3');
    expect(await axeViolations(online)).toEqual([]);

    // The quality check is not signed while the record holds it at two positions; the dialog says why, in English.
    await online.getByTestId('status-change').click();
    await online.getByTestId('status-option-DONE').click();
    await online.getByTestId('sign-off-password').fill(E2E_PASSWORD);
    await online.getByTestId('status-save').click();
    await expect(online.getByTestId('sign-off-error').textContent()).resolves.toBe(
      'Not signed: the same wheelset is mounted at two positions of this wagon. Swap or dismount it at one of them, then sign off.',
    );
    expect(await serverStatus(orderId)).toBe('CREATED');
    await online.getByTestId('status-dialog').getByRole('button', { name: 'Cancel' }).click();
    await online.getByTestId('status-dialog').waitFor({ state: 'detached' });

    // The colleague dismounts it at position 4: the warning goes on both devices.
    await online.getByTestId('wheelset-dismount').click();
    await online.getByTestId('confirm-ok').click();
    await expect.poll(() => mountedNumber(online), { timeout: 20_000 }).toBe('');
    await warning(online).waitFor({ state: 'detached' });
    await warning(offline).waitFor({ state: 'detached', timeout: 60_000 });
    expect(await mountedNumber(offline)).toBe(same);
    await offlineContext.close();
    await onlineContext.close();
  });
});
