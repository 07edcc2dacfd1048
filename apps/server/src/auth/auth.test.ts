import { ROLES, signInResponseSchema } from '@vers/domain';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { DEMO_LOGINS } from '../seed/demo.ts';
import { createTokenService } from './tokens.ts';
import { JWT_SECRET, type TestServer, startTestServer } from '../test/server.ts';
import { THROTTLE } from './throttle-policy.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const signIn = (userName: string, password: string) =>
  server.request<Record<string, unknown>>('POST', '/api/v1/auth/signin', { body: { userName, password } });

async function setUser(username: string, values: Partial<typeof users.$inferInsert>) {
  await server.database.db.update(users).set(values).where(eq(users.username, username));
}

describe('POST auth/signin', () => {
  it.each(DEMO_LOGINS.map((l) => [l.username, l.role, l.workshop] as const))(
    'signs in %s with role %s',
    async (username, role, workshop) => {
      const res = await signIn(username, 'Demo-Pass1');
      expect(res.status).toBe(200);
      const body = signInResponseSchema.parse(res.body);
      expect(body.username).toBe(username);
      expect(body.roles).toEqual([role]);
      expect(body.workshop?.name ?? null).toBe(workshop);
      expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now());
    },
  );

  it('gives the workshop with its protocol flag', async () => {
    const res = await signIn('werkadmin', 'Demo-Pass1');
    expect(res.body.workshop).toMatchObject({ name: 'VERS Demo-Werkstatt Nord', addLastModifier: true });
    const south = await signIn('staff2', 'Demo-Pass1');
    expect(south.body.workshop).toMatchObject({ name: 'VERS Demo-Werkstatt Süd', addLastModifier: false });
  });

  it('takes the username in any case', async () => {
    expect((await signIn('  STAFF ', 'Demo-Pass1')).status).toBe(200);
  });

  it('refuses a wrong password and an unknown user alike', async () => {
    const wrong = await signIn('wagonqa', 'Demo-Pass2');
    const unknown = await signIn('nobody', 'Demo-Pass1');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'WRONG_LOGIN' });
      expect(res.body).not.toHaveProperty('token');
    }
  });

  it('keeps passwords only as argon2id hashes', async () => {
    const [row] = await server.database.db.select().from(users).where(eq(users.username, 'staff'));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain('Demo-Pass1');
  });

  it('blocks a user after repeated failures from one address, even with the right password', async () => {
    for (let i = 0; i < THROTTLE.accountAndAddress; i++) {
      expect((await signIn('holder', 'wrong-password')).status).toBe(401);
    }
    const blocked = await signIn('holder', 'Demo-Pass1');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    // Another user from the same address is not locked out by holder's failures.
    expect((await signIn('qa', 'Demo-Pass1')).status).toBe(200);
  });
});

describe('bearer tokens', () => {
  it('are required for calls that are not public', async () => {
    const none = await server.request('GET', '/api/v1/auth/siteId');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'UNAUTHORIZED' });
    const garbage = await server.request('GET', '/api/v1/auth/siteId', { token: 'not.a.token' });
    expect(garbage.status).toBe(401);
  });

  it('open the calls of the signed-in user', async () => {
    const token = await server.signIn('staff');
    const res = await server.request('GET', '/api/v1/auth/siteId', { token });
    expect(res).toMatchObject({ status: 200, body: { siteId: 'DE-HH-01' } });
    const south = await server.request('GET', '/api/v1/auth/siteId', { token: await server.signIn('staff2') });
    expect(south.body).toEqual({ siteId: 'AT-LZ-02' });
    const admin = await server.request('GET', '/api/v1/auth/siteId', { token: await server.signIn('admin') });
    expect(admin.body).toEqual({ siteId: null });
  });

  it('signed with another secret are refused', async () => {
    const [row] = await server.database.db.select().from(users).where(eq(users.username, 'staff'));
    const forged = await createTokenService('some-other-secret-of-sufficient-length', 1).issue({
      userId: row!.id,
      tokenVersion: row!.tokenVersion,
    });
    expect((await server.request('GET', '/api/v1/auth/siteId', { token: forged.token })).status).toBe(401);
  });

  it('stop working when they expire', async () => {
    const [row] = await server.database.db.select().from(users).where(eq(users.username, 'staff'));
    const expired = await createTokenService(JWT_SECRET, -1).issue({ userId: row!.id, tokenVersion: 0 });
    expect((await server.request('GET', '/api/v1/auth/siteId', { token: expired.token })).status).toBe(401);
  });

  it('stop working when the user is disabled, and stay ended when the user is enabled again', async () => {
    const [token, admin] = await server.signInAll(['wheelsetqa', 'werkadmin'] as const);
    const [row] = await server.database.db.select().from(users).where(eq(users.username, 'wheelsetqa'));
    const put = (enabled: boolean) =>
      server.request('PUT', `/api/v1/users/${row!.id}`, {
        token: admin,
        body: {
          firstName: row!.firstName,
          lastName: row!.lastName,
          roles: row!.roles.map((name) => ({ name })),
          enabled,
        },
      });
    expect((await put(false)).status).toBe(200);
    expect((await server.request('GET', '/api/v1/auth/siteId', { token })).status).toBe(401);
    expect((await signIn('wheelsetqa', 'Demo-Pass1')).status).toBe(401);
    expect((await put(true)).status).toBe(200);
    // The token issued before the user was disabled stays ended; a new sign-in works.
    expect((await server.request('GET', '/api/v1/auth/siteId', { token })).status).toBe(401);
    const again = await signIn('wheelsetqa', 'Demo-Pass1');
    expect(again.status).toBe(200);
    expect((await server.request('GET', '/api/v1/auth/siteId', { token: String(again.body.token) })).status).toBe(200);
  });

  it('stop working when the password changes (token version raised)', async () => {
    const token = await server.signIn('wagonqa');
    await setUser('wagonqa', { tokenVersion: 1 });
    expect((await server.request('GET', '/api/v1/auth/siteId', { token })).status).toBe(401);
    expect((await signIn('wagonqa', 'Demo-Pass1')).status).toBe(200);
  });

  it('stop working when the user is deleted', async () => {
    const [created] = await server.database.db
      .insert(users)
      .values({
        username: 'temp',
        firstName: 'T',
        lastName: 'Emp',
        passwordHash: 'x',
        roles: [ROLES.WORKSHOP_STAFF],
      })
      .returning();
    const { token } = await server.tokens.issue({ userId: created!.id, tokenVersion: 0 });
    expect((await server.request('GET', '/api/v1/auth/siteId', { token })).status).toBe(200);
    await server.database.db.delete(users).where(eq(users.id, created!.id));
    expect((await server.request('GET', '/api/v1/auth/siteId', { token })).status).toBe(401);
  });
});

describe('POST auth/signout', () => {
  it('ends the token on the server at once; the same user’s other sign-ins stay', async () => {
    const [tablet, desktop] = [await server.signIn('qa'), await server.signIn('qa')];
    const out = await server.request('POST', '/api/v1/auth/signout', { token: tablet });
    expect(out.status).toBe(204);
    expect((await server.request('GET', '/api/v1/auth/siteId', { token: tablet })).status).toBe(401);
    expect((await server.request('POST', '/api/v1/auth/signout', { token: tablet })).status).toBe(401);
    expect((await server.request('GET', '/api/v1/auth/siteId', { token: desktop })).status).toBe(200);
    expect((await signIn('qa', 'Demo-Pass1')).status).toBe(200);
  });

  it('refuses a token without an id, which could not be signed out', async () => {
    const [row] = await server.database.db.select().from(users).where(eq(users.username, 'staff'));
    const withoutId = await new SignJWT({ tv: row!.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(row!.id))
      .setIssuer('vers')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(JWT_SECRET));
    expect((await server.request('GET', '/api/v1/auth/siteId', { token: withoutId })).status).toBe(401);
  });
});
