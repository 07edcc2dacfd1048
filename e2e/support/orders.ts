import { foldActivities, fromServerActivity, type ServerActivity, valueOf } from '@vers/domain';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, signIn } from './browser.ts';
import { E2E_PASSWORD } from './server.ts';

/** A bearer token of a demo user, from the real sign-in call. */
export async function apiToken(username = 'staff', origin = baseUrl()): Promise<string> {
  const signin = await fetch(`${origin}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: username, password: E2E_PASSWORD }),
  });
  return ((await signin.json()) as { token: string }).token;
}

/** An order made through the real API, as the add-order screen would; answers its id. */
export async function createOrderViaApi(
  body: Record<string, unknown>,
  username = 'staff',
  origin = baseUrl(),
): Promise<string> {
  const res = await fetch(`${origin}/api/v1/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await apiToken(username, origin)}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** The value the server's log gives a field of an order (its activities folded as every browser folds them). */
export async function serverValue(
  orderId: string,
  key: string,
  username = 'staff',
  origin = baseUrl(),
): Promise<unknown> {
  const res = await fetch(`${origin}/api/v1/activity/${orderId}`, {
    headers: { authorization: `Bearer ${await apiToken(username, origin)}` },
  });
  if (res.status !== 200) return undefined;
  const log = (await res.json()) as ServerActivity[];
  const state = foldActivities(log.map(fromServerActivity));
  return valueOf(state.values[key]) ?? null;
}

/** Changes of an order sent through the real API (`POST activity/batch`), as a device would send them. */
export async function pushViaApi(
  orderId: string,
  changes: Record<string, string | boolean>,
  username = 'staff',
  origin = baseUrl(),
): Promise<void> {
  const created = new Date().toISOString();
  const activities = Object.entries(changes).map(([key, value]) => ({
    id: crypto.randomUUID(),
    oI: orderId,
    k: key,
    t: 'XML_MODIFICATION',
    oV: JSON.stringify({ value, CaptureDate: created }),
    c: created,
  }));
  const res = await fetch(`${origin}/api/v1/activity/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await apiToken(username, origin)}` },
    body: JSON.stringify({ activities }),
  });
  expect(res.status).toBe(200);
}

/** What a wagon's release to service needs entered (packages/domain `releaseGaps`). */
export const WAGON_RELEASE_ENTRIES = {
  '$.Body.Wagen.technicalWaggonOutgoing.Labeling.ECM': 'ECM-DE-0815',
  '$.Body.Wagen.technicalWaggonOutgoing.ExecutedMaintenanceLevel': 'G42',
  '$.Body.Wagen.technicalWaggonOutgoing.MobileService.MaintenancePerformedCorrectly': true,
  '$.Body.Wagen.technicalWaggonOutgoing.MobileService.ReleaseToServiceGranted': true,
} as const;

/** A sign-off through the real API; answers it (its check code and hash). */
export async function signOffViaApi(
  orderId: string,
  body: { meaning: 'QUALITY_CHECK_PASSED' | 'RELEASED_TO_SERVICE'; status?: 'DONE' | 'DONE_ARCHIVED' },
  username = 'wagonqa',
  origin = baseUrl(),
): Promise<{ code: string; contentHash: string }> {
  const res = await fetch(`${origin}/api/v1/orders/${orderId}/sign-off`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await apiToken(username, origin)}` },
    body: JSON.stringify({ ...body, id: crypto.randomUUID(), password: E2E_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { code: string; contentHash: string };
}

/** Signs in on the login page and opens a wagon order's editor. */
export async function openWagonOrder(page: Page, username: string, orderId: string): Promise<void> {
  await page.goto('/login');
  await signIn(page, username);
  await page.getByTestId('menu').waitFor();
  await page.goto(`/orders/wagon/${orderId}`);
  await page.getByTestId('order-footer').waitFor();
}

/** The statuses the open status dialog offers, in its order (the dialog is its own chunk: waited for). */
export async function statusOptions(page: Page): Promise<(string | undefined)[]> {
  await page.getByTestId('status-dialog').waitFor();
  return page
    .getByTestId('status-dialog')
    .locator('[data-testid^="status-option-"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')?.replace('status-option-', '')));
}
