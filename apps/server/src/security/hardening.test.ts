import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WORKSHOP_ICON_MAX_PIXELS } from '@vers/domain';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../auth/throttle.ts';
import { users, workshops } from '../db/schema.ts';
import { JWT_SECRET, type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
let webDist: string;
let staff: string;
let werkadmin: string;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'vers-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>VERS test shell</title>');
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'export {};');
  // The test's own address is the trusted proxy, so a test can say which protocol "the client" used.
  server = await startTestServer({ webDist, trustProxy: '127.0.0.1' });
  [staff, werkadmin] = await server.signInAll(['staff', 'werkadmin'] as const);
});
afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('caching', () => {
  it('no API answer is kept by a cache: sign-in, orders, errors', async () => {
    const answers = [
      await server.request('POST', '/api/v1/auth/signin', { body: { userName: 'staff', password: 'Demo-Pass1' } }),
      await server.request('GET', '/api/v1/orders', { token: staff }),
      await server.request('GET', '/api/v1/orders'),
      await server.request('GET', '/api/v1/version/current'),
    ];
    for (const res of answers) expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('the web app keeps its own caching', async () => {
    const bundle = await server.request('GET', '/assets/index-abc123.js');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await server.request('GET', '/')).headers.get('cache-control')).toBe('no-cache');
  });
});

describe('HSTS', () => {
  it('is sent only when the request came over HTTPS', async () => {
    const plain = await server.request('GET', '/api/v1/version/current');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const secure = await server.request('GET', '/api/v1/version/current', {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=15552000');
  });
});

describe('the device cookie', () => {
  it('is HttpOnly, SameSite=Strict, for the API only, and Secure over HTTPS', async () => {
    const body = { userName: 'qa', password: 'Demo-Pass1' };
    const plain = await server.request('POST', '/api/v1/auth/signin', { body });
    const cookie = plain.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
    expect(cookie).toMatch(/; Path=\/api(;|$)/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).not.toMatch(/; Secure/);
    const secure = await server.request('POST', '/api/v1/auth/signin', {
      body,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(secure.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))).toMatch(/; Secure/);
  });
});

describe('text that is not Unicode', () => {
  it('a lone surrogate in any text field is refused with 400, and nothing is stored', async () => {
    const before = await server.request<unknown[]>('GET', '/api/v1/emailAddress', { token: werkadmin });
    const raw = '{"address":"lone\\ud800@example.org","languageCode":"de"}';
    const res = await server.request('POST', '/api/v1/emailAddress', { token: werkadmin, rawBody: raw });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION', fields: ['body.address'] });
    expect((await server.request('GET', '/api/v1/emailAddress', { token: werkadmin })).body).toEqual(before.body);
    // The other half of a pair alone, in a sign-in: refused the same way, before any password is checked.
    const signIn = await server.request('POST', '/api/v1/auth/signin', {
      rawBody: '{"userName":"staff","password":"Demo\\udc00Pass1"}',
    });
    expect(signIn).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: ['body.password'] } });
  });

  it('a well-formed pair (an emoji) is text like any other', async () => {
    const res = await server.request('POST', '/api/v1/auth/signin', {
      rawBody: '{"userName":"\\ud83d\\ude82-fan","password":"Demo-Pass1"}',
    });
    expect(res).toMatchObject({ status: 401, body: { code: 'WRONG_LOGIN' } });
  });
});

describe('tokens', () => {
  const forge = async (iat: number, exp: number) => {
    const [row] = await server.database.db.select().from(users).where(eq(users.username, 'staff'));
    return new SignJWT({ tv: row!.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(row!.id))
      .setIssuer('vers')
      .setJti(crypto.randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(JWT_SECRET));
  };
  const now = () => Math.floor(Date.now() / 1000);
  const status = async (token: string) => (await server.request('GET', '/api/v1/auth/siteId', { token })).status;

  it('issued in the future are refused', async () => {
    expect(await status(await forge(now() + 3600, now() + 3600 + 600))).toBe(401);
  });

  it('living longer than VERS_TOKEN_HOURS are refused, one as long is taken', async () => {
    // The test server's tokens live 1 hour.
    expect(await status(await forge(now() - 10, now() - 10 + 3600 + 1))).toBe(401);
    expect(await status(await forge(now() - 10, now() - 10 + 3600))).toBe(200);
  });
});

describe('the workshop logo', () => {
  it(`of more than ${WORKSHOP_ICON_MAX_PIXELS} px a side is refused from its header, and the old logo stays`, async () => {
    // A real 1x1 PNG whose header claims 12000 x 12000: small in bytes, huge when decoded.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const [row] = await server.database.db.select().from(workshops).where(eq(workshops.siteId, 'DE-HH-01'));
    const put = (bytes: Buffer) =>
      server.request('PUT', `/api/v1/workshops/${row!.id}/icon`, {
        token: werkadmin,
        rawBody: bytes.toString('base64'),
        headers: { 'content-type': 'text/plain' },
      });
    expect((await put(png)).status).toBe(200);
    const huge = Buffer.from(png);
    huge.writeUInt32BE(12_000, 16);
    huge.writeUInt32BE(12_000, 20);
    const res = await put(huge);
    expect(res).toMatchObject({ status: 400, body: { code: 'IMAGE_TOO_LARGE' } });
    const [after] = await server.database.db.select().from(workshops).where(eq(workshops.id, row!.id));
    expect(after?.icon).toBe(png.toString('base64'));
  });
});
