import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../seed/demo.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

const SCRIPT = `export const answer = ${JSON.stringify('forty-two '.repeat(200))};\n`;

let server: TestServer;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'vers-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>VERS test shell</title>');
  writeFileSync(path.join(webDist, 'COMMIT'), 'abc123\n');
  // A script with the compressed copies the build writes beside it (apps/web/vite.config.ts, precompress).
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'assets', 'app-abc.js'), SCRIPT);
  writeFileSync(path.join(webDist, 'assets', 'app-abc.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(webDist, 'assets', 'app-abc.js.gz'), gzipSync(SCRIPT));
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
    // A missing file and a folder of the build included: only the build's files are sent as files.
    for (const route of ['/', '/login', '/orders/wagon/12/brake', '/no/such/page', '/assets/', '/assets/gone.js']) {
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

  it('sends a script compressed to a browser that accepts Brotli or gzip, and plain to one that does not', async () => {
    const get = (acceptEncoding: string) =>
      server.app.inject({ method: 'GET', url: '/assets/app-abc.js', headers: { 'accept-encoding': acceptEncoding } });
    const br = await get('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
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
