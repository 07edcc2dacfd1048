// The product's API as the benchmarks call it: a signed-in JSON call, the bench user's token, a wagon order filled
// with text changes. One copy for every benchmark that prepares data over HTTP.
import { randomUUID } from 'node:crypto';
import { E2E_PASSWORD, type RunningProduct } from '../../e2e/support/server.ts';
import { TEXT_KEYS } from './wagon-keys.ts';

export async function api<T>(
  product: RunningProduct,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${product.url}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The token of the demo user `staff`. */
export async function apiToken(product: RunningProduct): Promise<string> {
  const signin = await fetch(`${product.url}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'staff', password: E2E_PASSWORD }),
  });
  if (!signin.ok) throw new Error(`sign-in: ${signin.status} ${await signin.text()}`);
  return ((await signin.json()) as { token: string }).token;
}

/** A new wagon order with `activities` text changes, pushed in batches of 1,000. */
export async function wagonOrder(product: RunningProduct, token: string, activities = 0) {
  const order = await api<{ id: string; number: string }>(product, token, 'POST', 'orders', {
    type: 'WAGON',
    maintenanceNumber: '21 81 2471 217-3',
    wagon: { wheelsetsOutgoing: [{ number: '' }, { number: '' }, { number: '' }, { number: '' }] },
  });
  for (let start = 0; start < activities; start += 1000) {
    const now = new Date().toISOString();
    const batch = Array.from({ length: Math.min(1000, activities - start) }, (_, i) => ({
      id: randomUUID(),
      oI: order.id,
      k: TEXT_KEYS[(start + i) % TEXT_KEYS.length],
      t: 'XML_MODIFICATION',
      oV: JSON.stringify({ value: `value ${start + i}`, CaptureDate: now }),
      c: now,
    }));
    await api(product, token, 'POST', 'activity/batch', { activities: batch });
  }
  return order;
}
