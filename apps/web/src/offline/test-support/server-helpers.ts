/**
 * For tests in the node environment only: the real server (Fastify over PGlite, in this process) behind a
 * fault-injecting proxy, and what the tests read from it past the proxy and the code under test.
 *
 * Loads the server first, then `test-node-globals.ts`, then the modules that touch the session: import it where a
 * test would import the server, before the test's own modules that touch the session.
 */
import {
  foldActivities,
  fromServerActivity,
  type OrderState,
  SENT_STATES,
  type ServerActivity,
  type SignInResponse,
  signInResponseSchema,
} from '@vers/domain';
import { afterAll, beforeAll, expect } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../../../server/src/test/server.ts';
// Before anything that imports the session (api, sync): it needs local storage and a window.
import { removeWindowStub } from '../test-node-globals.ts';
import { setApiOrigin } from '../../app/api.ts';
import { VersDb } from '../versdb.ts';
import { FaultProxy } from './fault-proxy.ts';

export interface ProxiedServer {
  /** The real server, to be asked directly. */
  readonly server: TestServer;
  /** The proxy the browser code talks to. */
  readonly proxy: FaultProxy;
  /** Where the proxy listens: the browser code's API origin. */
  readonly proxyUrl: string;
  /** A demo user's session, signed in on the server directly. */
  signIn(userName: string): Promise<SignInResponse>;
  /** What the server holds for an order, read past the proxy and the code under test. */
  activities(token: string, orderId: string): Promise<ServerActivity[]>;
  /** A browser's local database of its own, named `prefix-<uuid>`; deleted after the file's tests. */
  browserDb(prefix: string): VersDb;
}

/**
 * Starts the real server and a fault proxy before it before the file's tests (and points the browser code at the
 * proxy), and stops both after them. The handle answers in tests and in the hooks registered after this call.
 */
export function setUpProxiedServer(): ProxiedServer {
  let server: TestServer | undefined;
  let proxy: FaultProxy | undefined;
  let proxyUrl: string | undefined;
  const databases: VersDb[] = [];
  const started = () => {
    if (!server || !proxy || proxyUrl === undefined) throw new Error('the proxied server is not started yet');
    return { server, proxy, proxyUrl };
  };

  beforeAll(async () => {
    removeWindowStub();
    server = await startTestServer();
    proxy = new FaultProxy(server.url);
    proxyUrl = await proxy.start();
    setApiOrigin(proxyUrl);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(databases.map((db) => db.delete()));
    await proxy?.close();
    await server?.close();
  });

  return {
    get server() {
      return started().server;
    },
    get proxy() {
      return started().proxy;
    },
    get proxyUrl() {
      return started().proxyUrl;
    },
    async signIn(userName) {
      const res = await started().server.request('POST', '/api/v1/auth/signin', {
        body: { userName, password: DEMO_PASSWORD },
      });
      return signInResponseSchema.parse(res.body);
    },
    async activities(token, orderId) {
      const res = await started().server.request<ServerActivity[]>('GET', `/api/v1/activity/${orderId}`, { token });
      expect(res.status).toBe(200);
      return res.body;
    },
    browserDb(prefix) {
      const db = new VersDb(`${prefix}-${crypto.randomUUID()}`);
      databases.push(db);
      return db;
    },
  };
}

/** The state the server's activities fold to, as a browser folds them. */
export const serverFold = (activities: readonly ServerActivity[]): OrderState =>
  foldActivities(activities.map(fromServerActivity));

/** How many changes wait unsent in a browser's database. */
export const unsentCount = (db: VersDb) => db.orderResults.where('sent').equals(SENT_STATES.UNSENT).count();
