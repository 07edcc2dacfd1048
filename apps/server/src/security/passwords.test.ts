import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROLES } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE } from '../auth/throttle-policy.ts';
import {
  DEMO_PASSWORD,
  JWT_SECRET,
  type ServerProcess,
  createTestDatabase,
  requestAt,
  startServerProcess,
} from '../test/server.ts';

/*
 * Passwords, against the real server process at its most talkative log level (trace), on PGlite or, with
 * TEST_DATABASE_URL, on PostgreSQL: no password reaches a log line or an error body, and the sign-in limit holds
 * against a long run of wrong passwords from one address while the real user still signs in from another.
 */

let server: ServerProcess;
let drop: () => Promise<void>;
/** Where the server's own output stood once it had started (the start banner prints the demo password on purpose). */
let outputAtStart = 0;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vers-passwords-'));
  const database = await createTestDatabase();
  drop = async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  server = await startServerProcess({
    VERS_DATA_DIR: dataDir,
    VERS_DEMO_PASSWORD: DEMO_PASSWORD,
    VERS_JWT_SECRET: JWT_SECRET,
    VERS_WEB_DIST: path.join(dataDir, 'no-web-dist'),
    LOG_LEVEL: 'trace',
    // 127.0.0.1 plays a reverse proxy in the last test; the other loopback addresses are clients of their own.
    VERS_TRUST_PROXY: '127.0.0.1',
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  outputAtStart = server.output().length;
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await drop?.();
});

const call = (method: string, route: string, options: Parameters<typeof requestAt>[3] = {}) =>
  requestAt<unknown>(server.url, method, `/api/v1${route}`, options);

/**
 * A sign-in sent from a given address of the loopback range, as a client on another machine would be seen; with
 * `forwardedFor`, as a proxy sends it on behalf of that client.
 */
function signInFrom(address: string, userName: string, password: string, forwardedFor?: string): Promise<number> {
  const body = JSON.stringify({ userName, password });
  const url = new URL('/api/v1/auth/signin', server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        localAddress: address,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('passwords', () => {
  it('appear in no log line and no error body', async () => {
    const secrets = {
      wrong: 'Wrong-Secret-71',
      adminSet: 'Admin-Set-Pass92',
      ownNew: 'Own-New-Pass83',
      weak: 'weakpassword',
      inBrokenJson: 'Json-Secret-54',
    };
    const bodies: unknown[] = [];
    const keep = async (answer: Promise<{ status: number; body: unknown }>, status: number) => {
      const res = await answer;
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      bodies.push(res.body);
      return res.body;
    };

    await keep(call('POST', '/auth/signin', { body: { userName: 'staff', password: secrets.wrong } }), 401);
    await keep(
      call('POST', '/auth/signin', { rawBody: `{"userName":"staff","password":"${secrets.inBrokenJson}"` }),
      400,
    );
    await keep(
      call('POST', '/auth/signin', { rawBody: `{"userName":"staff","password":"${secrets.inBrokenJson}"}x` }),
      400,
    );
    await keep(call('POST', '/auth/signin', { body: { userName: ['staff'], password: secrets.inBrokenJson } }), 400);
    const signedIn = (await keep(
      call('POST', '/auth/signin', { body: { userName: 'werkadmin', password: DEMO_PASSWORD } }),
      200,
    )) as {
      token: string;
    };
    const token = signedIn.token;
    // An admin creates a user (the generated password is in that answer, once, by design) and sets a new one.
    const created = (await keep(
      call('POST', '/users', {
        token,
        body: { username: 'pwtest', firstName: 'P', lastName: 'W', roles: [{ name: ROLES.WORKSHOP_STAFF }] },
      }),
      201,
    )) as { user: { id: number }; password: string };
    const generated = created.password;
    bodies.pop(); // the one answer that carries a password on purpose
    const plain = { 'content-type': 'text/plain' };
    await keep(
      call('PUT', `/users/${created.user.id}/changePassword`, { token, rawBody: secrets.weak, headers: plain }),
      400,
    );
    await keep(
      call('PUT', `/users/${created.user.id}/changePassword`, { token, rawBody: secrets.adminSet, headers: plain }),
      200,
    );
    // The user changes it: a wrong old one, a weak new one, then right.
    const user = (await keep(
      call('POST', '/auth/signin', { body: { userName: 'pwtest', password: secrets.adminSet } }),
      200,
    )) as {
      token: string;
    };
    const own = (body: object) => call('PUT', '/users/current/password', { token: user.token, body });
    await keep(own({ oldPassword: secrets.wrong, newPassword: secrets.ownNew }), 400);
    await keep(own({ oldPassword: secrets.adminSet, newPassword: secrets.weak }), 400);
    await keep(own({ oldPassword: secrets.adminSet, newPassword: secrets.ownNew }), 200);
    bodies.pop(); // a session: a token, no password
    await keep(call('POST', '/auth/signin', { body: { userName: 'pwtest', password: secrets.ownNew } }), 200);

    const log = server.output().slice(outputAtStart);
    expect(log).toContain('/api/v1/users/current/password'); // the log did record these calls
    const errorText = JSON.stringify(bodies);
    for (const secret of [...Object.values(secrets), generated, DEMO_PASSWORD]) {
      expect(log, `a log line holds ${secret}`).not.toContain(secret);
      expect(errorText, `an answer holds ${secret}`).not.toContain(secret);
    }
  });

  it('sign-in limit holds under 100 wrong passwords in a row; the real user signs in from another address', async () => {
    const attacker = '127.0.0.3';
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push(await signInFrom(attacker, 'qa', `Guess-Nr-${i}x`));
    expect(statuses.slice(0, THROTTLE.accountAndAddress).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(THROTTLE.accountAndAddress).every((s) => s === 429)).toBe(true);
    // Even the right password does not get through from the attacker's address now...
    expect(await signInFrom(attacker, 'qa', DEMO_PASSWORD)).toBe(429);
    // ...while the real user, elsewhere, signs in as always.
    expect(await signInFrom('127.0.0.2', 'qa', DEMO_PASSWORD)).toBe(200);
  });

  it('behind a trusted proxy counts each client by its forwarded address, and nobody else may name one', async () => {
    const [proxy, outsider] = ['127.0.0.1', '127.0.0.4'];
    // Documentation addresses (RFC 5737) in a header only: no traffic goes there.
    const [attacker, realUser] = ['203.0.113.5', '203.0.113.9'];
    for (let i = 0; i < THROTTLE.accountAndAddress; i++) {
      expect(await signInFrom(proxy, 'wagonqa', `Guess-Nr-${i}y`, attacker)).toBe(401);
    }
    expect(await signInFrom(proxy, 'wagonqa', DEMO_PASSWORD, attacker)).toBe(429);
    expect(await signInFrom(proxy, 'wagonqa', DEMO_PASSWORD, realUser)).toBe(200);
    // A client that is not the proxy cannot slip out of its own count by naming another address.
    for (let i = 0; i < THROTTLE.accountAndAddress; i++) {
      expect(await signInFrom(outsider, 'wheelsetqa', `Guess-Nr-${i}z`, `203.0.113.${100 + i}`)).toBe(401);
    }
    expect(await signInFrom(outsider, 'wheelsetqa', DEMO_PASSWORD, '203.0.113.200')).toBe(429);
  });
});
