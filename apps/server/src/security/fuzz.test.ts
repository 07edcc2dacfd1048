import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { API_BASE } from '@vers/domain';
import { and, eq, inArray, ne, sql as drizzleSql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { createWagonOrder } from '../test/orders.ts';
import { type ApiResponse, type RequestOptions, startTestServer } from '../test/server.ts';
import { databaseDigest } from './digest.ts';

/*
 * Fuzzing every route of the API. The routes come from the running app (its router and its OpenAPI document), so
 * a new route is fuzzed without touching this file. Every answer must be below 500, a 4xx must be the JSON error
 * body, a refused call must leave the database as it was, and the server must still answer afterwards.
 *
 * Bounded: a fixed seed (`VERS_PROPERTY_SEED=random` explores new cases, any number repeats one), a number of runs
 * per route and a time budget for the whole file (`VERS_FUZZ_BUDGET_MS`).
 */

const PROPERTY_SEED: { seed?: number } =
  process.env.VERS_PROPERTY_SEED === 'random' ? {} : { seed: Number(process.env.VERS_PROPERTY_SEED ?? 20_261_124) };
/** Runs per property and actor; a route with a body has three properties (JSON values, shaped objects, raw). */
const RUNS = Number(process.env.VERS_FUZZ_RUNS ?? 40);
/** The whole file's fuzzing time; each route gets an equal share of what is left when its turn comes. */
const BUDGET_MS = Number(process.env.VERS_FUZZ_BUDGET_MS ?? 40_000);

/**
 * Workshop admin first (order and workshop routes), then the system admin (value lists, all workshops, keepers), then
 * the holder (the holder portal's calls, issue 22, which no other role takes).
 */
const CANDIDATE_ACTORS = ['werkadmin', 'admin', 'holder'] as const;
type Actor = (typeof CANDIDATE_ACTORS)[number] | 'anonymous';

// ---------------------------------------------------------------------------------------------------------------
// The server, the fixtures the real ids come from, and the database digest

const server = await startTestServer();
afterAll(async () => {
  if (process.env.VERS_FUZZ_STATS) console.log(JSON.stringify(timing));
  await server.close();
});

async function sql<T>(text: string): Promise<T[]> {
  return (await server.database.executeSql(text)).rows as T[];
}

/** A complete 1x1 PNG, so that a picture asset exists for the asset routes' real ids. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(typeAndData.length + 8);
    framed.writeUInt32BE(data.length, 0);
    typeAndData.copy(framed, 4);
    framed.writeUInt32BE(crc32(typeAndData), typeAndData.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 10, 20, 30]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// An order of the fuzzing workshop admin's workshop (with a picture) and one of the other workshop, whose ids
// must answer 404 to the first.
const fixtureToken = await server.signIn('werkadmin');
const ownOrder = await createWagonOrder(server, fixtureToken, 2);
await createWagonOrder(server, await server.signIn('werkadmin2'), 2);
const png = tinyPng();
const pictureUpload = await server.request('POST', `${API_BASE}/assets`, {
  token: fixtureToken,
  body: {
    id: randomUUID(),
    orderId: ownOrder.id,
    type: 'PICTURE',
    filename: 'fuzz.png',
    size: png.length,
    base64: png.toString('base64'),
  },
});
if (pictureUpload.status !== 200) throw new Error(`picture not stored: ${JSON.stringify(pictureUpload.body)}`);

/** Ids of real rows, by the table they live in. */
const idsOf = async (query: string) => (await sql<{ id: string }>(query)).map((row) => row.id);
const REAL = {
  orders: await idsOf('SELECT id::text AS id FROM orders ORDER BY created'),
  assets: await idsOf('SELECT id::text AS id FROM assets'),
  users: await idsOf(`SELECT id::text AS id FROM users WHERE username IN ('staff', 'werkadmin', 'staff2', 'admin')`),
  workshops: await idsOf('SELECT id::text AS id FROM workshops'),
  emailAddresses: await idsOf('SELECT id::text AS id FROM email_addresses'),
  valueLists: await idsOf('SELECT id::text AS id FROM default_options ORDER BY id LIMIT 2'),
  values: await idsOf('SELECT id::text AS id FROM default_option_values ORDER BY id LIMIT 2'),
  counters: ['1', '2', String(ownOrder.lastCounter)],
};

/**
 * Real values for a path or query parameter: by its name, else by the route's resource (the first segment after
 * the API base). Unknown names get generated values only.
 */
function realValues(url: string, name: string): string[] {
  const byName: Record<string, string[]> = {
    orderId: REAL.orders,
    workshopId: REAL.workshops,
    valueId: REAL.values,
    counter: REAL.counters,
  };
  if (byName[name]) return byName[name];
  if (name !== 'id') return [];
  const resource = url.slice(API_BASE.length + 1).split('/')[0] ?? '';
  const byResource: Record<string, string[]> = {
    orders: REAL.orders,
    assets: REAL.assets,
    users: REAL.users,
    workshops: REAL.workshops,
    workshop: REAL.workshops,
    emailAddress: REAL.emailAddresses,
    'default-options': REAL.valueLists,
  };
  return byResource[resource] ?? [];
}

async function digest(): Promise<Record<string, string>> {
  const start = performance.now();
  const tables = await databaseDigest(server.database);
  timing.digests++;
  timing.digestMs += performance.now() - start;
  return tables;
}

/**
 * The next transaction id the database hands out. It moves with every transaction that writes (anything, in any
 * schema; on a PostgreSQL server, in any database), so while it stands still nothing was written and the digest can
 * stay as it is.
 */
async function nextTransactionId(): Promise<string> {
  const [row] = await sql<{ next: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next');
  return row?.next ?? '';
}

/** Waits until the job queue has nothing to do: a job of an accepted call changes its asset row later. */
async function jobsIdle() {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const [row] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active')`,
    );
    if ((row?.n ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('background jobs still running after 3 minutes');
}

/** The fuzzing users as seeded: accepted calls may change their roles, disable or delete them. */
const ACTOR_ROWS = await server.database.db
  .select()
  .from(users)
  .where(inArray(users.username, [...CANDIDATE_ACTORS]));

/**
 * Puts the fuzzing users back as seeded (roles, workshop, enabled; a deleted one with its id), so that an accepted
 * call of a run (say, making another user a workshop admin and then deleting this one) does not leave the later
 * runs without a user who may call the route.
 */
async function restoreActors() {
  const { db } = server.database;
  for (const row of ACTOR_ROWS) {
    // A user created meanwhile under the same name would block the seeded one's.
    await db.delete(users).where(and(eq(drizzleSql`lower(${users.username})`, row.username), ne(users.id, row.id)));
    await db
      .insert(users)
      .values(row)
      .onConflictDoUpdate({
        target: users.id,
        set: { username: row.username, workshopId: row.workshopId, roles: row.roles, enabled: true },
      });
  }
}

/** Tokens of the demo users; forgotten after every accepted call, which may have changed a password or signed out. */
const tokens = new Map<Actor, string>();

/** A token of a demo user, minted for its current token version (no sign-in: a fuzzed call may change a password). */
async function tokenOf(actor: Actor): Promise<string | undefined> {
  if (actor === 'anonymous') return undefined;
  const known = tokens.get(actor);
  if (known) return known;
  const [row] = await sql<{ id: number; version: number }>(
    `SELECT id, token_version AS version FROM users WHERE username = '${actor}'`,
  );
  if (!row) throw new Error(`no user ${actor}`);
  const { token } = await server.tokens.issue({ userId: row.id, tokenVersion: row.version });
  tokens.set(actor, token);
  return token;
}

/** The digest taken after the last refused call; null when an accepted call may have changed the database since. */
let lastDigest: Record<string, string> | null = null;
const timing = { calls: 0, callMs: 0, digests: 0, digestMs: 0 };
/** Answers by status, of the route being fuzzed (for VERS_FUZZ_STATS). */
const statuses = new Map<number, number>();

/** A call as `actor`. An accepted one may have changed anything: the digest and the tokens are taken anew. */
async function send(method: string, path: string, actor: Actor, options: RequestOptions = {}): Promise<ApiResponse> {
  const token = await tokenOf(actor);
  const start = performance.now();
  const res = await server.request(method, path, { ...options, ...(token ? { token } : {}) });
  timing.calls++;
  timing.callMs += performance.now() - start;
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  if (res.status < 400) {
    lastDigest = null;
    tokens.clear(); // it may have changed the user's password, or signed the token out
  }
  return res;
}

// ---------------------------------------------------------------------------------------------------------------
// The routes, from the running app

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

interface OpenApiOperation {
  parameters?: { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

interface Route {
  method: string;
  url: string;
  /** Its OpenAPI operation; absent for a route left out of the document (an alias), fuzzed without a schema. */
  operation: OpenApiOperation | undefined;
}

/** Every method and URL of the router, read from Fastify's route tree (`printRoutes`), HEAD left out. */
function routerRoutes(): { method: string; url: string }[] {
  const found: { method: string; url: string }[] = [];
  const path: string[] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    path.length = depth;
    path[depth] = match[2] ?? '';
    for (const method of match[3]?.split(', ') ?? []) {
      if (method !== 'HEAD') found.push({ method, url: path.join('') });
    }
  }
  return found;
}

const openApi = server.app.swagger() as unknown as { paths: Record<string, Record<string, OpenApiOperation>> };
const ROUTES: Route[] = routerRoutes()
  .filter(({ url }) => url.startsWith(`${API_BASE}/`))
  .map(({ method, url }) => ({
    method,
    url,
    operation: openApi.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()],
  }))
  // Deletions last, so that the real rows the other routes are fuzzed with are still there.
  .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

const BODY_METHODS = ['POST', 'PUT', 'PATCH'];
const pathParams = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
const fillPath = (url: string, values: Record<string, string>) =>
  url.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'x');

/** The demo users whose roles the route takes: a call without a body as each of them is not refused 401/403. */
async function actorsOf(route: Route): Promise<Actor[]> {
  await restoreActors();
  tokens.clear();
  lastDigest = null;
  const url = fillPath(route.url, {});
  const anonymous = await send(route.method, url, 'anonymous');
  if (anonymous.status !== 401) return ['anonymous'];
  const actors: Actor[] = [];
  for (const actor of CANDIDATE_ACTORS) {
    const res = await send(route.method, url, actor);
    const refusedRole = res.status === 403 && (res.body as { message?: string }).message === 'insufficient rights';
    if (res.status !== 401 && !refusedRole) actors.push(actor);
  }
  return actors;
}

// ---------------------------------------------------------------------------------------------------------------
// Generated values

/** An object with an own property of each given name (`__proto__` as a plain key, not the prototype). */
function withOwnKeys(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];
const deepArray = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

/** Characters that text columns, JSON and the parsers have their own rules for. */
const hostileCharacter = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\ufeff', '\\', '"', "'", '%', '\n', '\u0085', '\u2028'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);

/** Values of the wrong type, size or content for whatever field they land in. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    -1,
    1.5,
    -2_147_483_649,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    5e-324,
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\u202e\u0301',
    '𝕍𝔼ℝ𝕊 🚃',
    'ÄÖÜß',
    'NaN',
    'Infinity',
    '-1',
    '1e400',
    '0x1F',
    '__proto__',
    'constructor',
    "'; DROP TABLE users; --",
    '%s%n%x',
    '../../etc/passwd',
    '2026-13-45T25:61:00Z',
    '+275760-09-13T00:00:00.000Z',
    '-271821-04-20T00:00:00.000Z',
    '0000-00-00',
    '00000000-0000-0000-0000-000000000000',
    [],
    {},
    [null],
  ),
  fc.constantFrom(10_000, 200_000).map((length) => 'x'.repeat(length)),
  // Deeper nesting goes as a raw body: fast-check's report of a counterexample recurses through it.
  fc.constantFrom(50, 300).map(deepArray),
  fc.constantFrom(...PROTOTYPE_KEYS).map((key) => withOwnKeys([[key, { polluted: true }]])),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A value of `arbitrary` once in `times`, else null. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>, times: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: times - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

/** A value that fits the schema, mostly (so that most bodies reach the handler); with odd values inside at any depth. */
function shaped(schema: JsonSchema, depth = 0, name = ''): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 9, arbitrary: fitting(schema, depth, name) }, { weight: 1, arbitrary: oddValue });
}

function fitting(schema: JsonSchema, depth: number, name = ''): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => fitting(s, depth)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const plain = fittingType(schema, type, depth, name);
  return schema.nullable ? fc.oneof(fc.constant(null), plain) : plain;
}

/** E-mail addresses as the contract takes them: its rule is a refinement the OpenAPI schema does not show. */
const emailAddress = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9_'+-]{1,20}$/), fc.stringMatching(/^[a-z0-9]{1,12}\.[a-z]{2,6}$/))
  .map(([local, domain]) => `${local}@${domain}`);

function fittingType(schema: JsonSchema, type: string | undefined, depth: number, name: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, shaped(s, depth + 1, key)])),
        { requiredKeys: (schema.required ?? []).filter((name) => name in properties) },
      );
      // Sometimes a required field is missing, or a prototype key or unknown field rides along.
      const extra = rarely(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS, 'unknownField'), oddValue), 4);
      return fc.tuple(record, extra, rarely(fc.nat(), 8)).map(([fields, extraField, dropIndex]) => {
        const entries = Object.entries(fields);
        if (dropIndex !== null && entries.length > 0) entries.splice(dropIndex % entries.length, 1);
        return withOwnKeys(extraField ? [...entries, extraField] : entries);
      });
    }
    case 'array':
      return fc.array(shaped(schema.items ?? {}, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'string': {
      if (/mail|address/i.test(name) && !schema.pattern)
        return fc.oneof(emailAddress, fittingType(schema, type, depth, ''));
      if (schema.format === 'uuid') return fc.oneof(fc.uuid(), fc.constantFrom(...REAL.orders, ...REAL.assets));
      if (schema.format === 'date-time') {
        return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
      }
      const minLength = schema.minLength ?? 0;
      // A pattern (an e-mail address, a country code) is matched, or nothing gets past validation to the handler.
      if (schema.pattern) {
        const length = (text: string) => text.length >= minLength && text.length <= (schema.maxLength ?? Infinity);
        return fc.stringMatching(new RegExp(schema.pattern)).filter(length);
      }
      const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
      return fc.oneof(
        fc.string({ minLength, maxLength }),
        fc.string({ unit: 'grapheme', minLength, maxLength }),
        fc.string({ unit: hostileCharacter, minLength: Math.max(minLength, 1), maxLength }),
      );
    }
    case 'integer': {
      const exclusive = schema.exclusiveMinimum === true;
      const min = Math.max((schema.minimum ?? -2_147_483_648) + (exclusive ? 1 : 0), Number.MIN_SAFE_INTEGER);
      const max = Math.min(schema.maximum ?? 2_147_483_647, Number.MAX_SAFE_INTEGER);
      return fc.oneof(fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) }), fc.maxSafeInteger());
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Path segments that are odd as they are (not percent-encoded again). */
const RAW_PATH_VALUES = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%2e%2e',
  '-1',
  '0',
  '1e3',
  '0x1F',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  'NaN',
  'null',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(101),
];

const URL_VALUE_MAX = 3_000;

/** A value as text for a URL; JSON for anything but a string (an object without a prototype has no String()). */
const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));

/** Percent-encoded; a lone surrogate (which has no UTF-8) becomes U+FFFD, as a browser sends it. */
const encode = (value: string) =>
  encodeURIComponent(
    value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );

/** A value for a path or query parameter: a real id, one fitting its schema, an odd one. */
function parameterValue(url: string, name: string, schema: JsonSchema | undefined): fc.Arbitrary<string> {
  const real = realValues(url, name);
  const generated = schema
    ? fitting(schema, 0).map((value) => encode(asText(value)))
    : fc.string({ maxLength: 20 }).map(encode);
  return fc.oneof(
    ...(real.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...real) }] : []),
    { weight: 2, arbitrary: generated },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_VALUES) },
    // Within Node's 16 KiB of request head: beyond it Node answers 431 before Fastify sees the call (see report).
    { weight: 1, arbitrary: oddValue.map((value) => encode(asText(value)).slice(0, URL_VALUE_MAX)) },
  );
}

const pathArb = (route: Route): fc.Arbitrary<string> => {
  const names = pathParams(route.url);
  const schemas = route.operation?.parameters?.filter((p) => p.in === 'path') ?? [];
  return fc
    .record(
      Object.fromEntries(
        names.map((name) => [name, parameterValue(route.url, name, schemas.find((p) => p.name === name)?.schema)]),
      ),
    )
    .map((values) => fillPath(route.url, values));
};

/** A query string of the route's own query parameters (some missing, some repeated), or none. */
const queryArb = (route: Route): fc.Arbitrary<string> => {
  const names = route.operation?.parameters?.filter((p) => p.in === 'query') ?? [];
  if (names.length === 0) return fc.constant('');
  const pair = fc.tuple(
    fc.constantFrom(...names.map((p) => p.name), ...PROTOTYPE_KEYS),
    fc.oneof(...names.map((p) => parameterValue(route.url, p.name, p.schema))),
  );
  return fc
    .array(pair, { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encode(k)}=${v}`).join('&')}` : ''));
};

const bodySchema = (route: Route): JsonSchema =>
  route.operation?.requestBody?.content['application/json']?.schema ?? { type: 'object' };

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
];

/** Bodies that are not JSON, or not quite, with any content type. */
const rawBodyArb = (route: Route) =>
  fc.record({
    raw: fc.oneof(
      fc.constantFrom(
        '',
        '{',
        '{"a":',
        '[1,2',
        'nul',
        '{"a": NaN}',
        '{"a": Infinity}',
        '{"a": 1,}',
        "{'a': 1}",
        '\ufeff{}',
        '\u0000',
        '{"__proto__": {"polluted": true}}',
        '{"constructor": {"prototype": {"polluted": true}}}',
        '"\\ud800"',
        '"\\u0000"',
        `"${'x'.repeat(1_100_000)}"`,
        '['.repeat(10_000) + ']'.repeat(10_000),
      ),
      fc.string({ unit: 'binary', maxLength: 100 }),
      // Valid JSON cut short.
      fc.tuple(shaped(bodySchema(route)), fc.nat()).map(([value, cut]) => {
        const text = JSON.stringify(value) ?? 'null';
        return text.slice(0, cut % (text.length + 1));
      }),
    ),
    contentType: fc.constantFrom(...CONTENT_TYPES),
  });

// ---------------------------------------------------------------------------------------------------------------
// The checks of one call

interface Call {
  path: string;
  body?: unknown;
  raw?: { raw: string; contentType: string };
}

/**
 * The run under way. fast-check's time limit abandons a run in the middle, its call still on the wire; the next run
 * waits for it, or its digest and token would be those of a database that call is still changing.
 */
let runUnderWay: Promise<unknown> = Promise.resolve();

function check(route: Route, actor: Actor, call: Call): Promise<void> {
  const run = runUnderWay.then(() => checkOne(route, actor, call));
  runUnderWay = run.catch(() => undefined);
  return run;
}

async function checkOne(route: Route, actor: Actor, call: Call) {
  if (lastDigest === null) {
    await restoreActors();
    await jobsIdle();
    lastDigest = await digest();
  }
  const before = lastDigest;
  const transactionBefore = await nextTransactionId();
  const res = await send(route.method, call.path, actor, {
    ...(call.raw ? { rawBody: call.raw.raw, headers: { 'content-type': call.raw.contentType } } : {}),
    ...(call.body !== undefined ? { body: call.body } : {}),
  });
  const what = `${route.method} ${shortened(call.path)} as ${actor} answered ${res.status}`;
  expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 500)}`).toBeLessThan(500);
  if (res.status < 400) return;
  const body = res.body as { statusCode?: unknown; code?: unknown; message?: unknown };
  expect(typeof body === 'object' && body !== null, `${what} without a JSON error body: ${String(res.body)}`).toBe(
    true,
  );
  expect(body.statusCode, `${what} with statusCode ${String(body.statusCode)}`).toBe(res.status);
  expect(typeof body.code, `${what} without a code`).toBe('string');
  expect(typeof body.message, `${what} without a message`).toBe('string');
  if ((await nextTransactionId()) === transactionBefore) return;
  // No job ran since the digest before (it waited for them), so any change is this call's.
  const after = await digest();
  const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
  expect(changed, `${what} (${String(body.code)}) but changed the database`).toEqual([]);
  lastDigest = after;
}

/** A report with every long string cut to its first 300 characters. */
const shortened = (report: string) =>
  report.replace(/[^\n]{300,}/g, (long) => `${long.slice(0, 300)}... (${long.length} characters)`);

async function stillAnswers() {
  const res = await server.request('GET', `${API_BASE}/version/current`);
  expect(res.status).toBe(200);
}

// ---------------------------------------------------------------------------------------------------------------
// The properties, one test per route

const started = Date.now();
let routesLeft = ROUTES.length;

describe('fuzzing every route of the API', () => {
  it('finds the routes from the running app', () => {
    // The sign-in, the order routes and an alias left out of the OpenAPI document are all there.
    expect(ROUTES.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        `POST ${API_BASE}/auth/signin`,
        `POST ${API_BASE}/orders`,
        `PATCH ${API_BASE}/activity/:orderId/:counter/reverted`,
        `PUT ${API_BASE}/workshop/:id`,
      ]),
    );
    expect(ROUTES.filter((r) => r.operation === undefined).length).toBeLessThan(ROUTES.length / 4);
  });

  for (const route of ROUTES) {
    it(`${route.method} ${route.url}`, async () => {
      // At least enough for a few runs of a slow route, even when earlier routes used up the budget.
      const share = Math.max(600, (BUDGET_MS - (Date.now() - started)) / routesLeft--);
      const actors = await actorsOf(route);
      statuses.clear();
      expect(actors.length, 'no demo user may call this route').toBeGreaterThan(0);
      const properties: fc.IAsyncProperty<[Actor, Call]>[] = [];
      const actorArb = fc.constantFrom(...actors);
      const path = pathArb(route);
      if (BODY_METHODS.includes(route.method)) {
        const json = fc.jsonValue({ maxDepth: 4 });
        properties.push(
          fc.asyncProperty(actorArb, fc.record({ path, body: json }), (a, c) => check(route, a, c)),
          fc.asyncProperty(actorArb, fc.record({ path, body: shaped(bodySchema(route)) }), (a, c) =>
            check(route, a, c),
          ),
          fc.asyncProperty(actorArb, fc.record({ path, raw: rawBodyArb(route) }), (a, c) => check(route, a, c)),
        );
      } else {
        const withQuery = fc.tuple(path, queryArb(route)).map(([p, q]) => ({ path: p + q }));
        properties.push(fc.asyncProperty(actorArb, withQuery, (a, c) => check(route, a, c)));
      }
      let runs = 0;
      for (const property of properties) {
        const details = await fc.check(property, {
          ...PROPERTY_SEED,
          numRuns: RUNS * actors.length,
          interruptAfterTimeLimit: share / properties.length,
          markInterruptAsFailure: false,
        });
        runs += details.numRuns;
        // fast-check's own report repeats the counterexample (a body of a megabyte, say) in full.
        // A property the time limit stopped before its first run has not failed (then counterexample is null).
        if (details.failed && (details.counterexample !== null || !details.interrupted)) {
          const cause = details.errorInstance instanceof Error ? details.errorInstance.message : '';
          throw new Error(shortened(`${fc.defaultReportMessage(details) ?? 'failed'}\n${cause}`));
        }
      }
      await runUnderWay;
      await stillAnswers();
      if (process.env.VERS_FUZZ_STATS) {
        const answers = [...statuses].map(([status, n]) => `${status}: ${n}`).join(', ');
        console.log(`${route.method} ${route.url}: ${runs} runs as ${actors.join(', ')} (${answers})`);
      }
    });
  }
});
