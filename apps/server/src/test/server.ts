import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { createTokenService, type TokenService } from '../auth/tokens.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { seedDemo } from '../seed/demo.ts';

export const DEMO_PASSWORD = 'Demo-Pass1';
export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as it is, for malformed bodies. */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  database: Database;
  tokens: TokenService;
  app: FastifyInstance;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  signIn(username: string, password?: string): Promise<string>;
  /** Tokens of several demo users, in the order named. */
  signInAll<const T extends readonly string[]>(usernames: T): Promise<{ [K in keyof T]: string }>;
  close(): Promise<void>;
}

/**
 * A database of its own for one test file: PGlite in memory, or, when TEST_DATABASE_URL names a
 * PostgreSQL server, a fresh database on it that is dropped afterwards. An unreachable server fails the run.
 */
async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { database: await openDatabase({ pgliteDir: null }), drop: async () => {} };
  const name = `vers_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    database,
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** The real server on a free port of 127.0.0.1, over real HTTP, on a seeded database of its own. */
export async function startTestServer(options: { webDist?: string } = {}): Promise<TestServer> {
  const { database, drop } = await openTestDatabase();
  await seedDemo(database.db, DEMO_PASSWORD);
  const tokens = createTokenService(JWT_SECRET, 1);
  const app = await buildApp({
    db: database.db,
    tokens,
    gitSha: '0123456789abcdef0123456789abcdef01234567',
    logLevel: 'silent',
    ...(options.webDist ? { webDist: options.webDist } : {}),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const response = await fetch(`${address}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json');
    return {
      status: response.status,
      body: (isJson && text ? JSON.parse(text) : text) as T,
      headers: response.headers,
    };
  }

  async function signIn(username: string, password = DEMO_PASSWORD) {
    const res = await request<{ token: string }>('POST', '/api/v1/auth/signin', {
      body: { userName: username, password },
    });
    if (res.status !== 200) throw new Error(`sign-in of ${username} answered ${res.status}`);
    return res.body.token;
  }

  return {
    url: address,
    database,
    tokens,
    app,
    request,
    signIn,
    async signInAll(usernames) {
      return (await Promise.all(usernames.map((u) => signIn(u)))) as never;
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
}
