import { type AuditEntry, ROLES } from '@vers/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../db/schema.ts';
import { DEMO_PASSWORD, type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
let werkadmin: string;
let werkadmin2: string;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  [werkadmin, werkadmin2, admin] = await server.signInAll(['werkadmin', 'werkadmin2', 'admin'] as const);
});
afterAll(async () => {
  await server?.close();
});

const trail = async (token: string, query = '') => {
  const res = await server.request<AuditEntry[]>('GET', `/api/v1/audit${query}`, { token });
  expect(res.status).toBe(200);
  return res.body;
};
const NEW_PASSWORD = 'Set-By-Admin7';
const OWN_PASSWORD = 'Own-Choice-8x';

describe('the audit trail', () => {
  it("records who changed users, settings and addresses, and failed sign-ins; the workshop's admins see it", async () => {
    const created = await server.request<{ user: { id: number }; password: string }>('POST', '/api/v1/users', {
      token: werkadmin,
      body: { username: 'audited', firstName: 'Aud', lastName: 'Ited', roles: [{ name: ROLES.WORKSHOP_STAFF }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.user.id;
    const put = (body: object) => server.request('PUT', `/api/v1/users/${id}`, { token: werkadmin, body });
    const user = { firstName: 'Aud', lastName: 'Ited', roles: [{ name: ROLES.WORKSHOP_WAGON_QA }] };
    expect((await put({ ...user, enabled: false })).status).toBe(200);
    expect((await put({ ...user, enabled: true })).status).toBe(200);
    const set = await server.request('PUT', `/api/v1/users/${id}/changePassword`, {
      token: werkadmin,
      rawBody: NEW_PASSWORD,
      headers: { 'content-type': 'text/plain' },
    });
    expect(set.status).toBe(200);
    const own = await server.request<{ token: string }>('POST', '/api/v1/auth/signin', {
      body: { userName: 'audited', password: NEW_PASSWORD },
    });
    const changed = await server.request('PUT', '/api/v1/users/current/password', {
      token: own.body.token,
      body: { oldPassword: NEW_PASSWORD, newPassword: OWN_PASSWORD },
    });
    expect(changed.status).toBe(200);
    const wrong = await server.request('POST', '/api/v1/auth/signin', {
      body: { userName: 'audited', password: 'Not-Hers-9' },
    });
    expect(wrong.status).toBe(401);
    const address = await server.request<{ id: number }>('POST', '/api/v1/emailAddress', {
      token: werkadmin,
      body: { address: 'audit@example.org', languageCode: 'de' },
    });
    expect(
      (await server.request('DELETE', `/api/v1/emailAddress/${address.body.id}`, { token: werkadmin })).status,
    ).toBe(204);

    const entries = await trail(werkadmin);
    expect(entries.slice(0, 8).map((e) => [e.action, e.actor, e.target])).toEqual([
      ['emailAddress.deleted', 'werkadmin', 'audit@example.org'],
      ['emailAddress.added', 'werkadmin', 'audit@example.org'],
      ['signIn.failed', 'audited', 'audited'],
      ['user.passwordChanged', 'audited', 'audited'],
      ['user.passwordSet', 'werkadmin', 'audited'],
      ['user.changed', 'werkadmin', 'audited'],
      ['user.changed', 'werkadmin', 'audited'],
      ['user.created', 'werkadmin', 'audited'],
    ]);
    expect(entries[6]?.details).toEqual({
      roles: { from: [ROLES.WORKSHOP_STAFF], to: [ROLES.WORKSHOP_WAGON_QA] },
      enabled: { from: true, to: false },
    });
    expect(entries[5]?.details).toEqual({ enabled: { from: false, to: true } });
    for (const entry of entries) {
      expect(entry.address).toBe('127.0.0.1');
      expect(Date.parse(entry.at)).toBeGreaterThan(Date.now() - 600_000);
    }
    // Never a password, in the answer or in the table.
    const rows = JSON.stringify(await server.database.db.select().from(auditLog));
    for (const secret of [created.body.password, NEW_PASSWORD, OWN_PASSWORD, 'Not-Hers-9', DEMO_PASSWORD]) {
      expect(JSON.stringify(entries)).not.toContain(secret);
      expect(rows).not.toContain(secret);
    }
  });

  it("is another workshop's business only for system admins", async () => {
    const south = await trail(werkadmin2);
    expect(south.some((e) => e.target === 'audited')).toBe(false);
    const other = await server.request('GET', '/api/v1/audit?workshopId=1', { token: werkadmin2 });
    expect(other.status).toBe(404);
    const [nord] = await server.database.db.select().from(users).where(eq(users.username, 'werkadmin'));
    const seenBySystem = await trail(admin, `?workshopId=${nord!.workshopId}`);
    expect(seenBySystem.some((e) => e.target === 'audited')).toBe(true);
  });

  it('names value-list changes, about no workshop, to system admins', async () => {
    const lists = await server.request<{ id: number }[]>('GET', '/api/v1/default-options?lang=de', { token: admin });
    const listId = lists.body[0]!.id;
    const added = await server.request('POST', `/api/v1/default-options/${listId}`, {
      token: admin,
      body: { value: 'AUDIT-1', text: 'Audited value', global: false },
    });
    expect(added.status).toBe(200);
    const entries = await trail(admin);
    expect(entries[0]).toMatchObject({ action: 'valueList.valueAdded', actor: 'admin', workshopId: null });
    expect(entries[0]?.details).toMatchObject({ value: 'AUDIT-1' });
  });

  it('records a throttled sign-in', async () => {
    for (let i = 0; i < 6; i++) {
      await server.request('POST', '/api/v1/auth/signin', { body: { userName: 'staff2', password: `Wrong-${i}x` } });
    }
    const entries = await trail(werkadmin2);
    expect(entries[0]).toMatchObject({ action: 'signIn.throttled', actor: 'staff2', target: 'staff2' });
    expect(entries.filter((e) => e.action === 'signIn.failed' && e.target === 'staff2')).toHaveLength(5);
  });

  it('pages backwards with `before`', async () => {
    const all = await trail(werkadmin);
    const older = await trail(werkadmin, `?before=${all[2]!.id}`);
    expect(older[0]?.id).toBe(all[3]?.id);
  });

  it('takes the change back when its audit entry cannot be written: no change without its entry', async () => {
    const { db } = server.database;
    // A trigger stands in for a crash between the change and its entry: every entry about 'unaudited' fails.
    await db.execute(sql`CREATE FUNCTION refuse_unaudited() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit entry refused'; END $$`);
    await db.execute(sql`CREATE TRIGGER refuse_unaudited BEFORE INSERT ON audit_log FOR EACH ROW
      WHEN (NEW.target IN ('unaudited', 'Unaudited Nord')) EXECUTE FUNCTION refuse_unaudited()`);
    try {
      const created = await server.request('POST', '/api/v1/users', {
        token: werkadmin,
        body: { username: 'unaudited', firstName: 'Un', lastName: 'Audited', roles: [{ name: ROLES.WORKSHOP_STAFF }] },
      });
      expect(created.status).toBe(500);
      expect(await db.select().from(users).where(eq(users.username, 'unaudited'))).toEqual([]);

      const [staff] = await db.select().from(users).where(eq(users.username, 'staff'));
      const before = { hash: staff!.passwordHash, version: staff!.tokenVersion };
      await db.execute(sql`UPDATE users SET username = 'unaudited' WHERE id = ${staff!.id}`);
      const set = await server.request('PUT', `/api/v1/users/${staff!.id}/changePassword`, {
        token: werkadmin,
        rawBody: 'Never-Kept-9x',
        headers: { 'content-type': 'text/plain' },
      });
      expect(set.status).toBe(500);
      const [after] = await db.select().from(users).where(eq(users.id, staff!.id));
      expect({ hash: after!.passwordHash, version: after!.tokenVersion }).toEqual(before);
      await db.execute(sql`UPDATE users SET username = 'staff' WHERE id = ${staff!.id}`);

      const workshopId = staff!.workshopId!;
      const workshop = await server.request<{ name: string }>('GET', `/api/v1/workshops/${workshopId}`, {
        token: werkadmin,
      });
      const renamed = await server.request('PUT', `/api/v1/workshops/${workshopId}`, {
        token: werkadmin,
        body: { ...workshop.body, name: 'Unaudited Nord' },
      });
      expect(renamed.status).toBe(500);
      const again = await server.request<{ name: string }>('GET', `/api/v1/workshops/${workshopId}`, {
        token: werkadmin,
      });
      expect(again.body.name).toBe(workshop.body.name);
    } finally {
      await db.execute(sql`DROP TRIGGER refuse_unaudited ON audit_log`);
      await db.execute(sql`DROP FUNCTION refuse_unaudited()`);
    }
  });

  it('is append-only: the database refuses to change, delete or empty it', async () => {
    const { db } = server.database;
    await expect(db.execute(sql`UPDATE audit_log SET actor = 'someone else'`)).rejects.toThrow();
    await expect(db.execute(sql`DELETE FROM audit_log`)).rejects.toThrow();
    await expect(db.execute(sql`TRUNCATE audit_log`)).rejects.toThrow();
    expect((await trail(werkadmin)).length).toBeGreaterThan(0);
  });
});
