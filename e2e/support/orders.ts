import { foldActivities, fromServerActivity, type ServerActivity, valueOf } from '@vers/domain';
import { expect } from 'vitest';
import { baseUrl } from './browser.ts';
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
