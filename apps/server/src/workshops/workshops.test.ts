import { workshopSchema, workshopSummarySchema } from '@vers/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { workshops } from '../db/schema.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
let werkadmin: string;
let versadmin: string;
let staff: string;

beforeAll(async () => {
  server = await startTestServer();
  [werkadmin, versadmin, staff] = await server.signInAll(['werkadmin', 'versadmin', 'staff']);
});
afterAll(async () => {
  await server?.close();
});

// A real 1x1 PNG.
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const settings = {
  name: 'Werkstatt Nord GmbH',
  countryCode: 'de',
  email: 'nord@example.org',
  phone: '+49 40 1',
  fax: '',
  revNr: 'REV-1',
  siteId: 'DE-HH-09',
  addLastModifier: false,
};

describe('workshop settings', () => {
  it('GET workshops/{id} gives the own workshop', async () => {
    const res = await server.request('GET', '/api/v1/workshops/1', { token: werkadmin });
    expect(workshopSchema.parse(res.body)).toMatchObject({ id: 1, name: 'VERS Demo-Werkstatt Nord', hasIcon: false });
  });

  it('answers the other spelling `workshop` the same', async () => {
    const res = await server.request('GET', '/api/v1/workshop/1', { token: werkadmin });
    expect(res.status).toBe(200);
    expect(workshopSchema.parse(res.body).id).toBe(1);
  });

  it("answers 404 for another workshop's id, with no data", async () => {
    for (const path of ['/api/v1/workshops/2', '/api/v1/workshop/2', '/api/v1/workshops/2/icon']) {
      const res = await server.request('GET', path, { token: werkadmin });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Süd');
    }
    const put = await server.request('PUT', '/api/v1/workshops/2', { token: werkadmin, body: settings });
    expect(put.status).toBe(404);
    const [south] = await server.database.db.select().from(workshops).where(eq(workshops.id, 2));
    expect(south?.name).toBe('VERS Demo-Werkstatt Süd');
  });

  it('GET workshops lists every workshop, by name, to the system admins only', async () => {
    const res = await server.request('GET', '/api/v1/workshops', { token: versadmin });
    expect(res.status).toBe(200);
    const list = z.array(workshopSummarySchema).parse(res.body);
    expect(list.map((w) => w.name)).toEqual(
      expect.arrayContaining(['VERS Demo-Werkstatt Nord', 'VERS Demo-Werkstatt Süd']),
    );
    expect(list.map((w) => w.name)).toEqual([...list.map((w) => w.name)].sort((a, b) => a.localeCompare(b)));
    // A summary: no contact data.
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(['countryCode', 'id', 'name', 'siteId']);
    expect((await server.request('GET', '/api/v1/workshops', { token: werkadmin })).status).toBe(403);
    expect((await server.request('GET', '/api/v1/workshops', { token: staff })).status).toBe(403);
  });

  it('refuses workers', async () => {
    expect((await server.request('GET', '/api/v1/workshops/1', { token: staff })).status).toBe(403);
  });

  it('PUT workshops/{id} saves the settings and the protocol flag', async () => {
    const res = await server.request('PUT', '/api/v1/workshops/1', { token: werkadmin, body: settings });
    expect(res.status).toBe(200);
    expect(workshopSchema.parse(res.body)).toMatchObject({ ...settings, countryCode: 'DE' });
    const signin = await server.request<{ workshop: { addLastModifier: boolean } }>('POST', '/api/v1/auth/signin', {
      body: { userName: 'staff', password: 'Demo-Pass1' },
    });
    expect(signin.body.workshop.addLastModifier).toBe(false);
  });

  it('refuses an empty name, a bad country code and a bad e-mail, and keeps what was saved', async () => {
    const before = await server.request('GET', '/api/v1/workshops/1', { token: werkadmin });
    const res = await server.request<{ fields: string[] }>('PUT', '/api/v1/workshops/1', {
      token: werkadmin,
      body: { ...settings, name: '', countryCode: 'DEU', email: 'not-an-address' },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields.sort()).toEqual(['body.countryCode', 'body.email', 'body.name']);
    expect((await server.request('GET', '/api/v1/workshops/1', { token: werkadmin })).body).toEqual(before.body);
  });

  it('a system admin reaches any workshop', async () => {
    expect((await server.request('GET', '/api/v1/workshops/2', { token: versadmin })).status).toBe(200);
  });
});

describe('workshop logo', () => {
  const putIcon = (body: string, id = 1) =>
    server.request('PUT', `/api/v1/workshops/${id}/icon`, {
      token: werkadmin,
      rawBody: body,
      headers: { 'content-type': 'text/plain' },
    });

  it('takes a PNG as plain-text base64 and gives it back', async () => {
    expect((await server.request('GET', '/api/v1/workshops/1/icon', { token: werkadmin })).status).toBe(404);
    const res = await putIcon(PNG_1X1);
    expect(res.status).toBe(200);
    expect(workshopSchema.parse(res.body).hasIcon).toBe(true);
    const icon = await server.request('GET', '/api/v1/workshops/1/icon', { token: werkadmin });
    expect(icon).toMatchObject({ status: 200, body: PNG_1X1 });
  });

  it('refuses what is not a PNG, whatever it claims, and keeps the logo', async () => {
    const jpegHeader = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');
    const text = Buffer.from('this is not an image at all').toString('base64');
    for (const body of [jpegHeader, text]) {
      expect(await putIcon(body)).toMatchObject({ status: 400, body: { code: 'NOT_PNG' } });
    }
    expect(await putIcon(`data:image/png;base64,${PNG_1X1}`)).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION' },
    });
    expect((await server.request('GET', '/api/v1/workshops/1/icon', { token: werkadmin })).body).toBe(PNG_1X1);
  });

  it('refuses a logo over 512 KB with 413', async () => {
    const big = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(600 * 1024)]).toString('base64');
    expect(await putIcon(big)).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

// Found by the fuzz suite (src/security/fuzz.test.ts): text PostgreSQL cannot store answered 500.
describe('a NUL character in a text field', () => {
  it('is refused with 400 and changes nothing', async () => {
    const [before] = await server.database.db.select().from(workshops).where(eq(workshops.id, 1));
    const res = await server.request('PUT', '/api/v1/workshops/1', {
      token: werkadmin,
      body: { ...settings, name: 'Werkstatt\u0000Nord' },
    });
    expect(res).toMatchObject({ status: 400, body: { statusCode: 400, code: 'VALIDATION' } });
    const [after] = await server.database.db.select().from(workshops).where(eq(workshops.id, 1));
    expect(after).toEqual(before);
  });
});

// Found by the fuzz suite (src/security/fuzz.test.ts): PostgreSQL refused to compare the id with an integer column.
describe('an id beyond the database integer', () => {
  it('is refused with 400 naming the id, on both spellings of the route', async () => {
    for (const path of ['/api/v1/workshops/2147483648', '/api/v1/workshop/2147483648/icon']) {
      expect(await server.request('GET', path, { token: werkadmin })).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION', fields: ['params.id'] },
      });
    }
  });
});
