import type { HolderOrderPage } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../test/server.ts';
import { seedDemoOrders } from './demo-orders.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemoOrders(server.app, DEMO_PASSWORD);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the demo orders', () => {
  it('show the demo holder wagons of both workshops, one released to service and one signed off, not another keeper’s', async () => {
    const holder = await server.signIn('holder');
    const page = await server.request<HolderOrderPage>('GET', '/api/v1/holder/orders', { token: holder });
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(4);
    expect(new Set(page.body.orders.map((order) => order.workshop.name))).toEqual(
      new Set(['VERS Demo-Werkstatt Nord', 'VERS Demo-Werkstatt Süd']),
    );
    expect(page.body.orders.every((order) => order.keeperMarking === 'D-GATX')).toBe(true);
    expect(page.body.orders.filter((order) => order.status === 'DONE')).toHaveLength(2);
    expect(page.body.orders.filter((order) => order.releasedAt !== null)).toHaveLength(1);
    // The workshop sees its three, the other keeper's wagon among them.
    const staff = await server.signIn('staff');
    const nord = await server.request<{ total: number }>('GET', '/api/v1/orders/page', { token: staff });
    expect(nord.body.total).toBe(3);
  });
});
