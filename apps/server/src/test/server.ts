import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { createTokenService, type TokenService } from '../auth/tokens.ts';
import { type Database, type DatabaseTarget, openDatabase } from '../db/client.ts';
import type { JobTiming } from '../jobs/queue.ts';
import type { MailSettings } from '../mail/transport.ts';
import { seedDemo } from '../seed/demo.ts';

export const DEMO_PASSWORD = 'Demo-Pass1';
export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256';

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as it is, for malformed bodies. */
  rawBody?: string;
  /** Sent as multipart/form-data. */
  form?: FormData;
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
 * A fresh database on the PostgreSQL server TEST_DATABASE_URL names, and how to drop it; null when it names none.
 * An unreachable server fails the run.
 */
export async function createTestDatabase(
  serverUrl: string | undefined = process.env.TEST_DATABASE_URL,
): Promise<{ url: string; drop: () => Promise<void> } | null> {
  if (!serverUrl) return null;
  const name = `vers_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/**
 * A database of its own for one test file: PGlite in memory, or, when TEST_DATABASE_URL names a
 * PostgreSQL server, a fresh database on it that is dropped afterwards. An unreachable server fails the run.
 */
async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const created = await createTestDatabase();
  if (!created) return { database: await openDatabase({ pgliteDir: null }), drop: async () => {} };
  return { database: await openDatabase({ url: created.url }), drop: created.drop };
}

/** A request to the server at `origin` (`http://host:port`) for `route` (`/api/v1/...`); a JSON answer comes parsed. */
export async function requestAt<T = unknown>(
  origin: string,
  method: string,
  route: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | FormData | undefined;
  if (opts.form !== undefined) body = opts.form;
  else if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (typeof body === 'string' && !headers['content-type']) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const response = await fetch(`${origin}${route}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return {
    status: response.status,
    body: (isJson && text ? JSON.parse(text) : text) as T,
    headers: response.headers,
  };
}

/**
 * The real server on a free port of 127.0.0.1, over real HTTP, on a seeded database of its own — or on `target`, an
 * existing database (seeded when empty), which `close` then leaves in place.
 */
export async function startTestServer(
  options: {
    webDist?: string;
    target?: DatabaseTarget;
    trustProxy?: string;
    mail?: MailSettings;
    jobTiming?: JobTiming;
  } = {},
): Promise<TestServer> {
  const { database, drop } = options.target
    ? { database: await openDatabase(options.target), drop: async () => {} }
    : await openTestDatabase();
  await seedDemo(database.db, DEMO_PASSWORD);
  const tokens = createTokenService(JWT_SECRET, 1);
  const app = await buildApp({
    db: database.db,
    executeSql: database.executeSql,
    tokens,
    gitSha: '0123456789abcdef0123456789abcdef01234567',
    logLevel: 'silent',
    ...(options.webDist ? { webDist: options.webDist } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    ...(options.mail ? { mail: options.mail } : {}),
    ...(options.jobTiming ? { jobTiming: options.jobTiming } : {}),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  const request = <T>(method: string, route: string, opts: RequestOptions = {}) =>
    requestAt<T>(address, method, route, opts);

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

/** A free TCP port of 127.0.0.1, for a process that has to be told its port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** All the process wrote so far, on stdout and stderr. */
  output(): string;
}

/** The server run from its TypeScript source, compiled as it loads (tsx). */
export const SOURCE_ENTRY: readonly string[] = ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')];

export interface ServerProcessOptions {
  /** Node's arguments that start the server: its source (the default), or the build's bundle (e2e/support/server.ts). */
  entry?: readonly string[];
  /** How often to ask whether it answers yet; 100 ms when absent. */
  pollMs?: number;
}

/**
 * The server as `npm start` runs it, as a process of its own on a free port of 127.0.0.1, with `env` over this
 * process's environment (less DATABASE_URL: the database is what `env` says); resolves once `version/current`
 * answers, within 240 s. `fixedPort` starts it again where it ran before (a browser keeps its origin).
 */
export async function startServerProcess(
  env: Record<string, string>,
  fixedPort?: number,
  { entry = SOURCE_ENTRY, pollMs = 100 }: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const port = fixedPort ?? (await freePort());
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, [...entry], {
    cwd: repoRoot,
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  // Generous: a busy machine starts a server slowly (a failure to start ends it at once, above).
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    try {
      if ((await fetch(`${url}/api/v1/version/current`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 240 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return { url, child, output: () => output };
}
