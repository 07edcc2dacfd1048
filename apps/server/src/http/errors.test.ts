import { errorBodySchema } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../app.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const signin = '/api/v1/auth/signin';

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = errorBodySchema.parse(res.body);
  expect(body).toMatchObject({ statusCode: status, code });
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

describe('bad input answers a JSON error, never a crash', () => {
  it('malformed JSON: 400 INVALID_JSON', async () => {
    expectError(await server.request('POST', signin, { rawBody: '{"userName": "staff", ' }), 400, 'INVALID_JSON');
  });

  it('an empty JSON body: 400', async () => {
    const res = await server.request('POST', signin, { rawBody: '' });
    expect(res.status).toBe(400);
    expect(['INVALID_JSON', 'VALIDATION']).toContain(errorBodySchema.parse(res.body).code);
  });

  it('a missing field: 400 VALIDATION naming the field', async () => {
    const body = expectError(await server.request('POST', signin, { body: { userName: 'staff' } }), 400, 'VALIDATION');
    expect(body.fields).toEqual(['body.password']);
  });

  it('a field of the wrong type: 400 VALIDATION naming the field', async () => {
    const res = await server.request('POST', signin, { body: { userName: ['staff'], password: 'x' } });
    expect(expectError(res, 400, 'VALIDATION').fields).toEqual(['body.userName']);
  });

  it('a body that is not an object: 400 VALIDATION', async () => {
    expectError(await server.request('POST', signin, { body: [1, 2] }), 400, 'VALIDATION');
  });

  it('an oversized body: 413 PAYLOAD_TOO_LARGE', async () => {
    const huge = JSON.stringify({ userName: 'x'.repeat(BODY_LIMIT_BYTES), password: 'y' });
    expectError(await server.request('POST', signin, { rawBody: huge }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('an address or headers too large for the HTTP parser: 431 in the same JSON shape', async () => {
    const longAddress = await server.request('GET', `/api/v1/orders?q=${'x'.repeat(20_000)}`);
    expectError(longAddress, 431, 'BAD_REQUEST');
    const longHeader = await server.request('GET', '/api/v1/version/current', {
      headers: { 'x-note': 'y'.repeat(20_000) },
    });
    expectError(longHeader, 431, 'BAD_REQUEST');
    // The server goes on answering.
    expect((await server.request('GET', '/api/v1/version/current')).status).toBe(200);
  });

  it('a body of an unsupported type: 415', async () => {
    const res = await server.request('POST', signin, {
      rawBody: '<signin/>',
      headers: { 'content-type': 'application/xml' },
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('an unknown /api/v1 path: 404 NOT_FOUND in JSON, for any method', async () => {
    expectError(await server.request('GET', '/api/v1/does-not-exist'), 404, 'NOT_FOUND');
    expectError(await server.request('DELETE', '/api/v1/auth'), 404, 'NOT_FOUND');
  });

  it('a wrong method on a known path: 404 in JSON', async () => {
    expectError(await server.request('GET', signin), 404, 'NOT_FOUND');
  });

  it('the server still answers after all of the above', async () => {
    expect((await server.request('GET', '/api/v1/version/current')).status).toBe(200);
  });
});
