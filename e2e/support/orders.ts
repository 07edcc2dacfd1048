import { expect } from 'vitest';
import { baseUrl } from './browser.ts';
import { E2E_PASSWORD } from './server.ts';

/** A bearer token of a demo user, from the real sign-in call. */
export async function apiToken(username = 'staff'): Promise<string> {
  const signin = await fetch(`${baseUrl()}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: username, password: E2E_PASSWORD }),
  });
  return ((await signin.json()) as { token: string }).token;
}

/** An order made through the real API, as the add-order screen would; answers its id. */
export async function createOrderViaApi(body: Record<string, unknown>, username = 'staff'): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/v1/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await apiToken(username)}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}
