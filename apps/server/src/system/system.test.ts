import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../seed/demo.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'vers-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>VERS test shell</title>');
  writeFileSync(path.join(webDist, 'COMMIT'), 'abc123\n');
  server = await startTestServer({ webDist });
});
afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('version and toggles', () => {
  it('GET version/current gives the back end commit without a session', async () => {
    const res = await server.request('GET', '/api/v1/version/current');
    expect(res).toMatchObject({ status: 200, body: { gitSha: '0123456789abcdef0123456789abcdef01234567' } });
  });

  it('GET toggles gives the feature toggle map from the database', async () => {
    const res = await server.request('GET', '/api/v1/toggles');
    expect(res).toMatchObject({ status: 200, body: { xmlImport: true, imageCapture: true } });
  });
});

describe('the web app and the API documentation', () => {
  it('serves the app for any path outside the API, so its router can take it', async () => {
    for (const route of ['/', '/login', '/orders/wagon/12/brake', '/no/such/page']) {
      const res = await server.request('GET', route);
      expect(res.status).toBe(200);
      expect(res.body).toContain('VERS test shell');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves the front end version file', async () => {
    const res = await server.request('GET', '/COMMIT');
    expect(res).toMatchObject({ status: 200, body: 'abc123\n' });
  });

  it('never answers an unknown API path with the app', async () => {
    const res = await server.request('GET', '/api/v1/orders-that-do-not-exist');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('publishes OpenAPI generated from the schemas', async () => {
    const res = await server.request<{ openapi: string; paths: Record<string, unknown> }>('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/signin',
        '/api/v1/auth/siteId',
        '/api/v1/version/current',
        '/api/v1/toggles',
      ]),
    );
  });
});

describe('demo seed', () => {
  it('runs once: a second run on a filled database changes nothing', async () => {
    expect(await seedDemo(server.database.db, 'Other-Pass9')).toBe(false);
    expect(
      (await server.request('POST', '/api/v1/auth/signin', { body: { userName: 'staff', password: 'Other-Pass9' } }))
        .status,
    ).toBe(401);
  });
});
