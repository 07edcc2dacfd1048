import { emailAddressSchema } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
let werkadmin: string;
let werkadmin2: string;

beforeAll(async () => {
  server = await startTestServer();
  [werkadmin, werkadmin2] = await server.signInAll(['werkadmin', 'werkadmin2']);
});
afterAll(async () => {
  await server?.close();
});

const list = async (token: string) =>
  z.array(emailAddressSchema).parse((await server.request('GET', '/api/v1/emailAddress', { token })).body);
const add = (token: string, address: string, languageCode = 'de') =>
  server.request<{ id: number; code: string }>('POST', '/api/v1/emailAddress', {
    token,
    body: { address, languageCode },
  });

describe('notification e-mail addresses', () => {
  it('lists the own workshop only', async () => {
    expect((await list(werkadmin)).map((a) => a.address)).toEqual([
      'leitung-nord@example.org',
      'quality-north@example.org',
    ]);
    expect((await list(werkadmin2)).map((a) => a.address)).toEqual(['leitung-sued@example.org']);
  });

  it('adds with 201, edits with 200, deletes with 204', async () => {
    const created = await add(werkadmin, 'neu@example.org', 'fr');
    expect(created.status).toBe(201);
    expect(emailAddressSchema.parse(created.body)).toMatchObject({ address: 'neu@example.org', languageCode: 'fr' });
    const edited = await server.request('PUT', `/api/v1/emailAddress/${created.body.id}`, {
      token: werkadmin,
      body: { address: 'neu2@example.org', languageCode: 'en' },
    });
    expect(edited).toMatchObject({ status: 200, body: { address: 'neu2@example.org', languageCode: 'en' } });
    expect(
      (await server.request('DELETE', `/api/v1/emailAddress/${created.body.id}`, { token: werkadmin })).status,
    ).toBe(204);
    expect((await list(werkadmin)).map((a) => a.address)).not.toContain('neu2@example.org');
  });

  it('refuses an invalid address and an unknown language with 400', async () => {
    for (const address of ['no-at-sign', 'a@b', '', 'two@@example.org']) {
      expect(await add(werkadmin, address)).toMatchObject({ status: 400, body: { code: 'VALIDATION' } });
    }
    expect(await add(werkadmin, 'ok@example.org', 'xx')).toMatchObject({ status: 400 });
  });

  it('refuses a duplicate, also in another case, with 409', async () => {
    expect(await add(werkadmin, 'LEITUNG-NORD@example.org')).toMatchObject({
      status: 409,
      body: { code: 'EMAIL_EXISTS' },
    });
    const [first, second] = await list(werkadmin);
    const res = await server.request('PUT', `/api/v1/emailAddress/${second!.id}`, {
      token: werkadmin,
      body: { address: first!.address, languageCode: 'de' },
    });
    expect(res).toMatchObject({ status: 409, body: { code: 'EMAIL_EXISTS' } });
  });

  it('the same address may serve two workshops', async () => {
    expect((await add(werkadmin2, 'quality-north@example.org')).status).toBe(201);
  });

  it('refuses an 11th address and keeps the ten', async () => {
    const have = (await list(werkadmin)).length;
    for (let i = have; i < 10; i++) expect((await add(werkadmin, `extra${i}@example.org`)).status).toBe(201);
    expect(await add(werkadmin, 'eleventh@example.org')).toMatchObject({
      status: 409,
      body: { code: 'EMAIL_LIMIT_MAX' },
    });
    expect(await list(werkadmin)).toHaveLength(10);
  });

  it('refuses to delete the last address', async () => {
    const own = await list(werkadmin2);
    for (const address of own.slice(1)) {
      expect((await server.request('DELETE', `/api/v1/emailAddress/${address.id}`, { token: werkadmin2 })).status).toBe(
        204,
      );
    }
    const last = (await list(werkadmin2))[0]!;
    const res = await server.request('DELETE', `/api/v1/emailAddress/${last.id}`, { token: werkadmin2 });
    expect(res).toMatchObject({ status: 409, body: { code: 'EMAIL_LIMIT_MIN' } });
    expect(await list(werkadmin2)).toHaveLength(1);
  });

  it("keeps another workshop's addresses out of reach", async () => {
    const south = (await list(werkadmin2))[0]!;
    const put = await server.request('PUT', `/api/v1/emailAddress/${south.id}`, {
      token: werkadmin,
      body: { address: 'hijack@example.org', languageCode: 'de' },
    });
    expect(put.status).toBe(404);
    expect((await server.request('DELETE', `/api/v1/emailAddress/${south.id}`, { token: werkadmin })).status).toBe(404);
    expect((await server.request('GET', '/api/v1/emailAddress?workshopId=2', { token: werkadmin })).status).toBe(404);
    expect((await list(werkadmin2))[0]).toEqual(south);
  });
});

// Found by the fuzz suite (src/security/fuzz.test.ts): PostgreSQL refused to compare the id with an integer column.
describe('an id beyond the database integer', () => {
  it('is refused with 400, in the path and in the query', async () => {
    const admin = await server.signIn('admin');
    expect(await server.request('DELETE', '/api/v1/emailAddress/2147483648', { token: werkadmin })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', fields: ['params.id'] },
    });
    expect(await server.request('GET', '/api/v1/emailAddress?workshopId=2147483648', { token: admin })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', fields: ['querystring.workshopId'] },
    });
  });
});
