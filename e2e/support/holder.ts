import { checkDigit } from '@vers/domain';
import type { Browser, BrowserContext } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl } from './browser.ts';
import { WAGON_RELEASE_ENTRIES, apiToken, createOrderViaApi, pushViaApi, signOffViaApi } from './orders.ts';

/** The order's keeper marking field, as painted on the wagon (`D-GATX`). */
export const KEEPER_MARKING_KEY = '$.Body.Wagen.technicalWaggonOutgoing.Halterkurzkennzeichen';

/** A valid 12-digit wagon number no other test (nor an earlier run on the same data) uses. */
export function uniqueWagonNumber(): string {
  const first11 = `3180${String(Date.now() * 1000 + Math.floor(Math.random() * 1000)).slice(-7)}`;
  return `${first11}${checkDigit(first11)}`;
}

const wheelset = (i: number) => {
  const first11 = `4${String(4_000_000_000 + Math.floor(Math.random() * 1_000_000) * 10 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

export interface KeeperOrder {
  id: string;
  number: string;
  wagonNumber: string;
}

/**
 * A wagon order made through the real API by a workshop user, with the keeper marking painted on the wagon; `entered`:
 * the workshop also enters what a release to service needs; `released`: and wagon QA signs it off as released (done).
 */
export async function keeperOrderViaApi(
  marking: string,
  options: { entered?: boolean; released?: boolean; username?: string } = {},
): Promise<KeeperOrder> {
  const username = options.username ?? 'staff';
  const wagonNumber = uniqueWagonNumber();
  const id = await createOrderViaApi(
    {
      type: 'WAGON',
      maintenanceNumber: wagonNumber,
      wagon: { wheelsetsOutgoing: [0, 1].map((i) => ({ number: wheelset(i) })) },
    },
    username,
  );
  await pushViaApi(
    id,
    { [KEEPER_MARKING_KEY]: marking, ...(options.entered || options.released ? WAGON_RELEASE_ENTRIES : {}) },
    username,
  );
  if (options.released) await signOffViaApi(id, { meaning: 'RELEASED_TO_SERVICE', status: 'DONE' });
  const res = await fetch(`${baseUrl()}/api/v1/orders/${id}`, {
    headers: { authorization: `Bearer ${await apiToken(username)}` },
  });
  expect(res.status).toBe(200);
  const { number } = (await res.json()) as { number: string };
  return { id, number, wagonNumber };
}

/** The device sizes the holder's tests run on. */
export const PHONE = { width: 412, height: 915 } as const;
export const TABLET = { width: 1280, height: 800 } as const;

/** A fresh browser profile showing the app in `language` on a screen of `viewport`. */
export async function contextIn(
  browser: Browser,
  language: string,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl(), locale: language, viewport, acceptDownloads: true });
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('vers-lang')) localStorage.setItem('vers-lang', lang);
  }, language);
  return context;
}
