// @vitest-environment node
// The real server (Fastify over PGlite) runs in this process, which jsdom would get in the way of.
import 'fake-indexeddb/auto';
import { ACTIVITY_TYPES, orderSchema, SENT_STATES, signInResponseSchema } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../../server/src/test/server.ts';
import { createWagonOrder } from '../../../server/src/test/orders.ts';
// Before anything that imports the session: it needs local storage and a window.
import { removeWindowStub } from './test-node-globals.ts';
import { call, setApiOrigin } from '../app/api.ts';
import { sessionStore } from '../app/session.ts';
import { changeStatus } from './status-change.ts';
import { VersDb } from './versdb.ts';

let server: TestServer;
const db = new VersDb(`versdb-status-${crypto.randomUUID()}`);

beforeAll(async () => {
  removeWindowStub();
  server = await startTestServer();
  setApiOrigin(server.url);
  sessionStore.set(
    await call('auth/signin', signInResponseSchema, {
      method: 'POST',
      body: { userName: 'staff', password: DEMO_PASSWORD },
    }),
  );
});
afterAll(async () => {
  await db.delete();
  await server?.close();
});

describe('changeStatus', () => {
  it('online: the server takes it; a status the roles do not allow is refused; offline: it waits on the device', async () => {
    const order = await createWagonOrder(server, sessionStore.get()!.token);
    expect(await changeStatus(db, order.id, 'IN_QA')).toBe('updated');
    const read = await call(`orders/${order.id}`, orderSchema);
    expect(read.status).toBe('IN_QA');
    // Staff may hand an order to quality only (docs/requirements/statuses.md#status-dialog).
    expect(await changeStatus(db, order.id, 'DONE')).toBe('refused');
    expect(await db.orderResults.count()).toBe(0);

    setApiOrigin('http://127.0.0.1:1');
    try {
      expect(await changeStatus(db, order.id, 'IN_WORK')).toBe('savedLocally');
    } finally {
      setApiOrigin(server.url);
    }
    const waiting = await db.orderResults.toArray();
    expect(waiting).toMatchObject([
      { orderId: order.id, activityType: ACTIVITY_TYPES.ORDER_STATUS_MODIFICATION, sent: SENT_STATES.UNSENT },
    ]);
    expect(JSON.parse(waiting[0]!.outputValue)).toBe('IN_WORK');
  });
});
