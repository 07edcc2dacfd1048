import { defaultOptionSchema, defaultOptionSummarySchema } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
let versadmin: string;
let admin: string;
let werkadmin: string;
let staff: string;

beforeAll(async () => {
  server = await startTestServer();
  [versadmin, admin, werkadmin, staff] = await server.signInAll(['versadmin', 'admin', 'werkadmin', 'staff']);
});
afterAll(async () => {
  await server?.close();
});

async function withValues(lang: string, token = staff, after?: string) {
  const query = after ? `lang=${lang}&after=${encodeURIComponent(after)}` : `lang=${lang}`;
  const res = await server.request('GET', `/api/v1/default-options-with-values?${query}`, { token });
  expect(res.status).toBe(200);
  return z.array(defaultOptionSchema).parse(res.body);
}

async function contractorList(lang = 'de') {
  const list = (await withValues(lang)).find((l) => l.key === 'ListAuftraggeber');
  if (!list) throw new Error('no contractor list');
  return list;
}

describe('reading value lists', () => {
  it('gives every signed-in user the lists of a language with their values', async () => {
    const de = await contractorList('de');
    const en = await contractorList('en');
    expect(de.text).toBe('Auftraggeber');
    expect(en.text).toBe('Contractor');
    expect(de.values.length).toBeGreaterThan(3);
    expect(de.values.map((v) => v.text)).toContain('DB Cargo AG');
    expect(de.amount).toBe(de.values.length);
  });

  it('GET default-options gives the summaries with the number of values', async () => {
    const res = await server.request('GET', '/api/v1/default-options?lang=fr', { token: versadmin });
    const summaries = z.array(defaultOptionSummarySchema).parse(res.body);
    const contractors = summaries.find((s) => s.key === 'ListAuftraggeber');
    expect(contractors?.text).toBe("Donneur d'ordre");
    expect(contractors?.amount).toBeGreaterThan(3);
  });

  it('refuses a missing or unknown language and a malformed `after`', async () => {
    for (const query of ['', '?lang=xx', '?lang=de&after=yesterday']) {
      const res = await server.request('GET', `/api/v1/default-options-with-values${query}`, { token: staff });
      expect(res).toMatchObject({ status: 400, body: { code: 'VALIDATION' } });
    }
  });

  it('needs a session', async () => {
    expect((await server.request('GET', '/api/v1/default-options-with-values?lang=de')).status).toBe(401);
  });
});

describe('changing value lists', () => {
  it('is for system admins only', async () => {
    const list = await contractorList();
    for (const token of [werkadmin, staff]) {
      const res = await server.request('POST', `/api/v1/default-options/${list.id}`, {
        token,
        body: { value: 'X', text: 'X', global: false },
      });
      expect(res.status).toBe(403);
    }
  });

  it('adds, edits and deletes values; an incremental load after a time returns just the changed list', async () => {
    const before = await contractorList();
    const since = before.lastModified;
    expect((await withValues('de', staff, since)).map((l) => l.key)).toEqual([]);

    const added = await server.request<{ id: number }>('POST', `/api/v1/default-options/${before.id}`, {
      token: versadmin,
      body: { value: 'RAILPOOL', text: 'Railpool GmbH', global: true },
    });
    expect(added.status).toBe(200);
    const changed = await withValues('de', staff, since);
    expect(changed.map((l) => l.key)).toEqual(['ListAuftraggeber']);
    expect(changed[0]?.values).toContainEqual({
      id: added.body.id,
      value: 'RAILPOOL',
      text: 'Railpool GmbH',
      global: true,
    });

    const edited = await server.request('PUT', `/api/v1/default-options/${before.id}/${added.body.id}`, {
      token: admin, // ROLE_ADMIN may, as the route guard admits it
      body: { id: added.body.id, value: 'RAILPOOL', text: 'Railpool', global: false },
    });
    expect(edited).toMatchObject({ status: 200, body: { text: 'Railpool', global: false } });

    const deleted = await server.request('DELETE', `/api/v1/default-options/${before.id}/${added.body.id}`, {
      token: versadmin,
    });
    expect(deleted.status).toBe(204);
    expect((await contractorList()).values.map((v) => v.value)).not.toContain('RAILPOOL');
    // Other languages' lists are separate.
    expect((await contractorList('en')).values).toHaveLength(before.values.length);
  });

  it('refuses a value without key or display text, and a duplicate key, keeping the list', async () => {
    const list = await contractorList();
    for (const body of [
      { value: '', text: 'Name', global: false },
      { value: 'KEY', text: '  ', global: false },
      { text: 'Name' },
    ]) {
      expect(
        await server.request('POST', `/api/v1/default-options/${list.id}`, { token: versadmin, body }),
      ).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION' },
      });
    }
    const duplicate = await server.request('POST', `/api/v1/default-options/${list.id}`, {
      token: versadmin,
      body: { value: list.values[0]!.value, text: 'Again', global: false },
    });
    expect(duplicate).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect((await contractorList()).values).toEqual(list.values);
  });

  it('keeps at least one value in a list', async () => {
    const list = await contractorList('tr');
    const [last, ...rest] = list.values;
    for (const value of rest) {
      const res = await server.request('DELETE', `/api/v1/default-options/${list.id}/${value.id}`, {
        token: versadmin,
      });
      expect(res.status).toBe(204);
    }
    const res = await server.request('DELETE', `/api/v1/default-options/${list.id}/${last!.id}`, { token: versadmin });
    expect(res).toMatchObject({ status: 409, body: { code: 'LAST_VALUE' } });
    expect((await contractorList('tr')).values).toEqual([last]);
  });

  it('answers 404 for a value of another list or an unknown list', async () => {
    const de = await contractorList('de');
    const en = await contractorList('en');
    const res = await server.request('PUT', `/api/v1/default-options/${de.id}/${en.values[0]!.id}`, {
      token: versadmin,
      body: { value: 'X', text: 'X', global: false },
    });
    expect(res.status).toBe(404);
    expect((await server.request('GET', '/api/v1/default-options/999999', { token: staff })).status).toBe(404);
  });
});

// Found by the fuzz suite (src/security/fuzz.test.ts).
describe('input the database cannot take', () => {
  it('refuses a NUL character in a value with 400, keeping the list', async () => {
    const list = await contractorList();
    const [first] = list.values;
    for (const res of [
      await server.request('POST', `/api/v1/default-options/${list.id}`, {
        token: versadmin,
        body: { value: 'NUL', text: 'a\u0000b', global: false },
      }),
      await server.request('PUT', `/api/v1/default-options/${list.id}/${first!.id}`, {
        token: versadmin,
        body: { value: first!.value, text: 'a\u0000b', global: false },
      }),
    ]) {
      expect(res).toMatchObject({ status: 400, body: { statusCode: 400, code: 'VALIDATION' } });
    }
    expect((await contractorList()).values).toEqual(list.values);
  });

  it('refuses an id beyond the database integer with 400, not 500', async () => {
    const tooBig = '2147483648';
    for (const [method, path] of [
      ['GET', `/api/v1/default-options/${tooBig}`],
      ['DELETE', `/api/v1/default-options/1/${tooBig}`],
      ['PUT', `/api/v1/default-options/${tooBig}/1`],
    ] as const) {
      const res = await server.request(method, path, {
        token: versadmin,
        ...(method === 'PUT' ? { body: { value: 'X', text: 'X', global: false } } : {}),
      });
      expect(res, `${method} ${path}`).toMatchObject({ status: 400, body: { code: 'VALIDATION' } });
    }
  });
});
