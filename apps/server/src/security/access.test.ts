import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ALL_ROLES, API_RIGHTS, type ApiRight, ROLES, type Role, localDate, rightsTableMarkdown } from '@vers/domain';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, notInArray } from 'drizzle-orm';
import { emailAddresses, orders } from '../db/schema.ts';
import { DEMO_LOGINS } from '../seed/demo.ts';
import { OUT, WAGON_NUMBER, createWagonOrder, push, wheelsetNumbers } from '../test/orders.ts';
import { DEMO_PASSWORD, JWT_SECRET, type RequestOptions, type TestServer, startTestServer } from '../test/server.ts';
import { databaseDigest } from './digest.ts';

/**
 * Every route of the API against the rights table (rights.ts): as each role of the spec, as users of another
 * workshop, and with no, expired, foreign-key, `alg: none` and malformed tokens. Refused calls leave the database
 * as it was; allowed ones succeed; another workshop's data never appears in an answer.
 */

let server: TestServer;
const NORD = 1;
/** One demo user per role, all of workshop Nord but the two system admins (no workshop). */
const userOfRole = Object.fromEntries(
  DEMO_LOGINS.filter((l) => !l.username.endsWith('2')).map((l) => [l.role, l.username]),
) as Record<Role, string>;
const tokenOfRole = {} as Record<Role, string>;
/** Users of workshop Süd: its admin and its staff. */
const OTHER_WORKSHOP = [
  { username: 'werkadmin2', role: ROLES.WORKSHOP_ADMIN },
  { username: 'staff2', role: ROLES.WORKSHOP_STAFF },
] as const;
const tokenOfOther: Record<string, string> = {};
/** Texts that only workshop Nord's data contains; none may reach a user of Süd. */
const nordMarkers = new Set<string>(['Werkstatt Nord', 'leitung-nord@example.org', 'wagonqa', 'wheelsetqa']);

/** A 1x1 PNG, the smallest picture the server's PNG check takes. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const WAGON_TEMPLATE = readFileSync(new URL('../../../../docs/xml/example-wagon.xml', import.meta.url));

const api = (path: string) => `/api/v1${path}`;
const bearer = (token: string): RequestOptions => ({ token });

async function ok<T>(res: Promise<{ status: number; body: T }>, status = [200, 201, 204]): Promise<T> {
  const answer = await res;
  if (!status.includes(answer.status))
    throw new Error(`fixture call answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

// --- Fresh resources of workshop Nord, made by its own users ---

const staff = () => tokenOfRole[ROLES.WORKSHOP_STAFF];
const werkadmin = () => tokenOfRole[ROLES.WORKSHOP_ADMIN];
const sysadmin = () => tokenOfRole[ROLES.ADMIN];

async function newOrder() {
  const order = await createWagonOrder(server, staff(), 2);
  nordMarkers.add(order.id);
  return order.id;
}
/** A wheelset order of Nord: signed off by wheelset QA, whose role rule covers wheelset orders only. */
async function newWheelsetOrder() {
  const order = await ok(
    server.request<{ id: string }>('POST', api('/orders'), {
      token: staff(),
      body: { id: randomUUID(), type: 'WHEELSET', maintenanceNumber: wheelsetNumbers(1)[0]! },
    }),
  );
  nordMarkers.add(order.id);
  return order.id;
}
async function newActivity() {
  const orderId = await newOrder();
  const body = await ok(
    server.request<{ co: number }>('POST', api('/activity'), {
      token: staff(),
      body: push(orderId, `$.Body.Wagen.technicalWaggonIncoming.Eigengewicht`, '23500'),
    }),
  );
  return { orderId, counter: body.co };
}
async function newPicture(orderId: string) {
  const id = randomUUID();
  await ok(server.request('POST', api('/assets'), { token: staff(), body: picture(id, orderId) }));
  nordMarkers.add(id);
  return id;
}
const picture = (id: string, orderId: string) => ({
  id,
  type: 'PICTURE',
  filename: 'radsatz.png',
  base64: PNG_BASE64,
  size: Buffer.from(PNG_BASE64, 'base64').length,
  orderId,
});
/** An XML template of Nord, once its background check is done (so that it changes nothing later). */
async function newImport() {
  const id = randomUUID();
  const body = {
    id,
    type: 'IMPORT',
    filename: 'wagon.xml',
    base64: WAGON_TEMPLATE.toString('base64'),
    size: WAGON_TEMPLATE.length,
  };
  await ok(server.request('POST', api('/assets'), { token: staff(), body }));
  nordMarkers.add(id);
  for (let tries = 0; ; tries++) {
    const result = await ok(
      server.request<{ validationStatus: string }>(
        'GET',
        api(`/assets/validation-result/${id}/WAGON`),
        bearer(staff()),
      ),
    );
    if (result.validationStatus !== 'IN_VALIDATION') return id;
    if (tries > 1800) throw new Error('the template check did not end within 3 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
async function newUser() {
  const username = `u${randomUUID().slice(0, 8)}`;
  const body = await ok(
    server.request<{ user: { id: number } }>('POST', api('/users'), {
      token: werkadmin(),
      body: { username, firstName: 'Nord', lastName: 'Nutzer', roles: [{ name: ROLES.WORKSHOP_STAFF }] },
    }),
  );
  nordMarkers.add(username);
  return body.user.id;
}
/** A workshop keeps at most 10 addresses: the ones these tests made go before a new one. */
async function makeRoomForAddress() {
  await server.database.db
    .delete(emailAddresses)
    .where(and(eq(emailAddresses.workshopId, NORD), notInArray(emailAddresses.id, seededAddresses)));
}
let seededAddresses: number[] = [];
async function newEmailAddress() {
  await makeRoomForAddress();
  const address = `${randomUUID().slice(0, 8)}-nord@example.org`;
  const body = await ok(
    server.request<{ id: number }>('POST', api('/emailAddress'), {
      token: werkadmin(),
      body: { address, languageCode: 'de' },
    }),
  );
  nordMarkers.add(address);
  return body.id;
}
/** A mail of Nord written to the outbox (no SMTP server here): an order reaches IN_QA, its mails are delivered. */
async function newMail() {
  const orderId = await newOrder();
  await ok(server.request('POST', api(`/orders/${orderId}/status`), { token: werkadmin(), body: { status: 'IN_QA' } }));
  for (let tries = 0; ; tries++) {
    const mails = await ok(
      server.request<{ id: string; orderNumber: string; status: string }[]>(
        'GET',
        api(`/notificationMails?workshopId=${NORD}`),
        bearer(werkadmin()),
      ),
    );
    const [orderRow] = await server.database.db.select().from(orders).where(eq(orders.id, orderId));
    const mine = mails.filter((mail) => mail.orderNumber === orderRow?.number);
    if (mine.length > 0 && mine.every((mail) => mail.status === 'SENT')) return mine[0]!.id;
    if (tries > 1800) throw new Error('the mails were not written within 3 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
let valueListId = 0;
async function newListValue() {
  const value = `V${randomUUID().slice(0, 6)}`;
  const body = await ok(
    server.request<{ id: number }>('POST', api(`/default-options/${valueListId}`), {
      token: sysadmin(),
      body: { value, text: value, global: true },
    }),
  );
  return body.id;
}

/** A VKM no keeper has yet: five random capital letters. */
const freshVkm = () =>
  Array.from({ length: 5 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
async function newKeeper() {
  const body = await ok(
    server.request<{ id: number }>('POST', api('/keepers'), {
      token: sysadmin(),
      body: { name: `Halter ${randomUUID().slice(0, 6)}`, markings: [freshVkm()] },
    }),
  );
  return body.id;
}
/** A wagon order of Nord whose keeper marking names the demo holder's keeper (GATX). */
async function newKeeperOrder() {
  const orderId = await newOrder();
  await ok(
    server.request('POST', api('/activity'), {
      token: staff(),
      body: push(orderId, '$.Body.Wagen.technicalWaggonOutgoing.Halterkurzkennzeichen', 'D-GATX'),
    }),
  );
  return orderId;
}
/** A keeper XML of such an order, once generated. */
async function newKeeperDocument() {
  const orderId = await newKeeperOrder();
  const [asset] = await ok(
    server.request<{ id: string }[]>('POST', api(`/export/${orderId}/de`), {
      token: staff(),
      body: { types: ['XML_KEEPER'] },
    }),
  );
  for (let tries = 0; ; tries++) {
    const documents = await ok(
      server.request<{ id: string; status: string }[]>('GET', api(`/assets/order/${orderId}`), bearer(staff())),
    );
    if (documents.find((d) => d.id === asset!.id)?.status === 'AVAILABLE') return asset!.id;
    if (tries > 1800) throw new Error('the keeper XML was not made within 3 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const WORKSHOP_SETTINGS = {
  name: 'VERS Demo-Werkstatt Nord',
  countryCode: 'de',
  email: 'nord@example.org',
  phone: '+49 40 1',
  fax: '',
  revNr: 'REV-1',
  siteId: 'DE-HH-09',
  addLastModifier: true,
};

/** A call of one route on a fresh resource of workshop Nord, and the status that means it worked. */
interface Call {
  path: string;
  options?: Omit<RequestOptions, 'token'>;
}

/**
 * How to call each route on workshop Nord's data, so that an allowed caller succeeds. Each call gets resources of
 * its own where the call uses them up (deleting, changing status).
 */
const CALLS: Record<string, (role?: Role) => Promise<Call>> = {
  'POST /api/v1/auth/signin': async () => ({
    path: '/auth/signin',
    options: { body: { userName: 'qa', password: DEMO_PASSWORD } },
  }),
  'POST /api/v1/auth/signout': async () => ({ path: '/auth/signout' }),
  'GET /api/v1/auth/siteId': async () => ({ path: '/auth/siteId' }),
  'GET /api/v1/version/current': async () => ({ path: '/version/current' }),
  'GET /api/v1/toggles': async () => ({ path: '/toggles' }),
  'GET /api/v1/users/roles': async () => ({ path: '/users/roles' }),
  'GET /api/v1/users/current': async () => ({ path: '/users/current' }),
  'GET /api/v1/audit': async () => ({ path: '/audit' }),
  'POST /api/v1/users': async () => ({
    path: '/users',
    options: {
      body: {
        username: `n${randomUUID().slice(0, 8)}`,
        firstName: 'A',
        lastName: 'B',
        roles: [{ name: ROLES.WORKSHOP_STAFF }],
        workshopId: NORD,
      },
    },
  }),
  'PUT /api/v1/users/:id': async () => ({
    path: `/users/${await newUser()}`,
    options: { body: { firstName: 'Neu', lastName: 'Name', roles: [{ name: ROLES.WORKSHOP_STAFF }], enabled: true } },
  }),
  'PUT /api/v1/users/:id/changePassword': async () => ({
    path: `/users/${await newUser()}/changePassword`,
    options: { rawBody: 'Fresh-Pass12', headers: { 'content-type': 'text/plain' } },
  }),
  'DELETE /api/v1/users/:id': async () => ({ path: `/users/${await newUser()}` }),
  'PUT /api/v1/users/current/password': async () => ({
    path: '/users/current/password',
    options: { body: { oldPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD } },
  }),
  'GET /api/v1/workshops': async () => ({ path: '/workshops' }),
  'GET /api/v1/workshops/:id': async () => ({ path: `/workshops/${NORD}` }),
  'PUT /api/v1/workshops/:id': async () => ({ path: `/workshops/${NORD}`, options: { body: WORKSHOP_SETTINGS } }),
  'GET /api/v1/workshops/:id/icon': async () => ({ path: `/workshops/${NORD}/icon` }),
  'PUT /api/v1/workshops/:id/icon': async () => ({
    path: `/workshops/${NORD}/icon`,
    options: { rawBody: PNG_BASE64, headers: { 'content-type': 'text/plain' } },
  }),
  'GET /api/v1/emailAddress': async () => ({ path: `/emailAddress?workshopId=${NORD}` }),
  'POST /api/v1/emailAddress': async () => {
    await makeRoomForAddress();
    return {
      path: `/emailAddress?workshopId=${NORD}`,
      options: { body: { address: `${randomUUID().slice(0, 8)}@example.org`, languageCode: 'en' } },
    };
  },
  'PUT /api/v1/emailAddress/:id': async () => ({
    path: `/emailAddress/${await newEmailAddress()}`,
    options: { body: { address: `${randomUUID().slice(0, 8)}@example.org`, languageCode: 'fr' } },
  }),
  'DELETE /api/v1/emailAddress/:id': async () => ({ path: `/emailAddress/${await newEmailAddress()}` }),
  'GET /api/v1/notificationMails': async () => ({ path: `/notificationMails?workshopId=${NORD}` }),
  'GET /api/v1/notificationMails/:id/eml': async () => ({ path: `/notificationMails/${await newMail()}/eml` }),
  'GET /api/v1/default-options': async () => ({ path: '/default-options?lang=de' }),
  'GET /api/v1/default-options-with-values': async () => ({ path: '/default-options-with-values?lang=de' }),
  'GET /api/v1/default-options/:id': async () => ({ path: `/default-options/${valueListId}` }),
  'POST /api/v1/default-options/:id': async () => ({
    path: `/default-options/${valueListId}`,
    options: { body: { value: `P${randomUUID().slice(0, 6)}`, text: 'Neu', global: false } },
  }),
  'PUT /api/v1/default-options/:id/:valueId': async () => {
    const valueId = await newListValue();
    return {
      path: `/default-options/${valueListId}/${valueId}`,
      options: { body: { id: valueId, value: `E${randomUUID().slice(0, 6)}`, text: 'Geändert', global: false } },
    };
  },
  'DELETE /api/v1/default-options/:id/:valueId': async () => ({
    path: `/default-options/${valueListId}/${await newListValue()}`,
  }),
  'GET /api/v1/orders': async () => ({ path: '/orders' }),
  'GET /api/v1/orders/page': async () => ({ path: '/orders/page?sort=status&direction=asc&status=open&search=21' }),
  'GET /api/v1/orders/changes': async () => ({ path: '/orders/changes' }),
  'GET /api/v1/dashboard': async () => ({ path: '/dashboard?days=7' }),
  'GET /api/v1/orders/:id': async () => ({ path: `/orders/${await newOrder()}` }),
  'POST /api/v1/orders': async () => ({
    path: '/orders',
    options: {
      body: {
        id: randomUUID(),
        type: 'WAGON',
        contractor: 'DBC',
        externalOrderNumber: 'E',
        maintenanceNumber: WAGON_NUMBER,
        wagon: { number: WAGON_NUMBER, wheelsetsOutgoing: wheelsetNumbers(2).map((number) => ({ number })) },
      },
    },
  }),
  'DELETE /api/v1/orders/:id': async () => ({ path: `/orders/${await newOrder()}` }),
  'PATCH /api/v1/orders/:id': async () => ({
    path: `/orders/${await newOrder()}`,
    options: { body: { id: randomUUID(), position: 1, direction: 'TURNED' } },
  }),
  'POST /api/v1/orders/:id/status': async () => ({
    path: `/orders/${await newOrder()}/status`,
    options: { body: { status: 'IN_QA' } },
  }),
  'GET /api/v1/activity/:orderId': async () => ({ path: `/activity/${(await newActivity()).orderId}` }),
  'GET /api/v1/activity/:orderId/last': async () => ({ path: `/activity/${(await newActivity()).orderId}/last` }),
  'GET /api/v1/activity/:orderId/conflicts': async () => ({
    path: `/activity/${(await newActivity()).orderId}/conflicts`,
  }),
  'GET /api/v1/activity/:orderId/:counter': async () => {
    const { orderId, counter } = await newActivity();
    return { path: `/activity/${orderId}/${counter}` };
  },
  'POST /api/v1/activity': async () => ({
    path: '/activity',
    options: { body: push(await newOrder(), '$.Body.Wagen.technicalWaggonIncoming.Eigengewicht', '23600') },
  }),
  'POST /api/v1/activity/batch': async () => ({
    path: '/activity/batch',
    options: {
      body: { activities: [push(await newOrder(), '$.Body.Wagen.technicalWaggonIncoming.Eigengewicht', '23700')] },
    },
  }),
  'PATCH /api/v1/activity/:orderId/:counter/reverted': async () => {
    const { orderId, counter } = await newActivity();
    return { path: `/activity/${orderId}/${counter}/reverted` };
  },
  'POST /api/v1/assets': async () => ({ path: '/assets', options: { body: picture(randomUUID(), await newOrder()) } }),
  'POST /api/v1/assets/upload': async () => {
    const { base64, ...fields } = picture(randomUUID(), await newOrder());
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
    form.append('file', new Blob([Buffer.from(base64, 'base64')], { type: 'image/png' }), fields.filename);
    return { path: '/assets/upload', options: { form } };
  },
  'GET /api/v1/assets': async () => {
    const orderId = await newOrder();
    return { path: `/assets?ids=${await newPicture(orderId)}` };
  },
  'GET /api/v1/assets/order/:orderId': async () => {
    const orderId = await newOrder();
    await newPicture(orderId);
    return { path: `/assets/order/${orderId}` };
  },
  'GET /api/v1/assets/:id': async () => ({ path: `/assets/${await newPicture(await newOrder())}` }),
  'GET /api/v1/assets/download/:id': async () => ({ path: `/assets/download/${await newPicture(await newOrder())}` }),
  'GET /api/v1/assets/thumbnail/:id': async () => ({
    path: `/assets/thumbnail/${await newPicture(await newOrder())}`,
  }),
  'GET /api/v1/assets/validation-result/:id/:orderType': async () => ({
    path: `/assets/validation-result/${await newImport()}/WAGON`,
  }),
  'DELETE /api/v1/assets/:id': async () => ({ path: `/assets/${await newPicture(await newOrder())}` }),
  'POST /api/v1/orders/:id/sign-off': async (role) => ({
    path: `/orders/${role === ROLES.WORKSHOP_WHEELSET_QA ? await newWheelsetOrder() : await newOrder()}/sign-off`,
    options: { body: { id: randomUUID(), password: DEMO_PASSWORD, meaning: 'QUALITY_CHECK_PASSED', status: 'DONE' } },
  }),
  'GET /api/v1/orders/:id/sign-offs': async () => ({ path: `/orders/${await newOrder()}/sign-offs` }),
  'GET /api/v1/sign-offs/:code': async () => {
    const orderId = await newOrder();
    const signed = await ok(
      server.request<{ code: string }>('POST', api(`/orders/${orderId}/sign-off`), {
        token: werkadmin(),
        body: { id: randomUUID(), password: DEMO_PASSWORD, meaning: 'QUALITY_CHECK_PASSED', status: 'DONE' },
      }),
    );
    return { path: `/sign-offs/${signed.code}` };
  },
  'POST /api/v1/export/:orderId/:language': async () => ({
    path: `/export/${await newOrder()}/de`,
    options: { body: { types: ['XML_WORKSHOP'] } },
  }),
  'GET /api/v1/keepers': async () => ({ path: '/keepers' }),
  'POST /api/v1/keepers': async () => ({
    path: '/keepers',
    options: { body: { name: 'Neuer Halter', markings: [freshVkm()] } },
  }),
  'PUT /api/v1/keepers/:id': async () => ({
    path: `/keepers/${await newKeeper()}`,
    options: { body: { name: 'Umbenannt', markings: [freshVkm(), freshVkm()] } },
  }),
  'DELETE /api/v1/keepers/:id': async () => ({ path: `/keepers/${await newKeeper()}` }),
  'GET /api/v1/holder/orders': async () => {
    await newKeeperOrder();
    return { path: '/holder/orders?search=21' };
  },
  'GET /api/v1/holder/orders/:id': async () => ({ path: `/holder/orders/${await newKeeperOrder()}` }),
  'POST /api/v1/holder/orders/:id/documents': async () => ({
    path: `/holder/orders/${await newKeeperOrder()}/documents`,
    options: { body: { type: 'XML_KEEPER', language: 'en' } },
  }),
  'GET /api/v1/holder/documents/:id': async () => ({ path: `/holder/documents/${await newKeeperDocument()}` }),
  'GET /api/v1/deadlines': async () => {
    // A Nord order with a deadline due in the window: its id is a marker no other workshop may see.
    const orderId = await newOrder();
    await ok(
      server.request('POST', api('/activity'), {
        token: staff(),
        body: push(orderId, `${OUT}.Revision.DatumLetzteFrist`, localDate(new Date(Date.now() + 10 * 86_400_000))),
      }),
    );
    return { path: '/deadlines?within=30' };
  },
};
// `assets/?ids=`, the spec's spelling of `assets?ids=`, answers the same.
CALLS['GET /api/v1/assets/'] = async () => {
  const { path } = await CALLS['GET /api/v1/assets']!();
  return { path: path.replace('/assets?', '/assets/?') };
};
// The other spelling of the workshop calls answers the same.
for (const key of Object.keys(CALLS).filter((k) => k.includes('/workshops/'))) {
  const call = CALLS[key]!;
  CALLS[key.replace('/workshops/', '/workshop/')] = async () => {
    const { path, options } = await call();
    return { path: path.replace('/workshops/', '/workshop/'), ...(options ? { options } : {}) };
  };
}

const keyOf = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const isAllowed = (rights: ApiRight, role: Role) =>
  rights.access === 'public' || rights.access === 'signed-in' || rights.access.includes(role);

async function callAs(rights: ApiRight, call: Call, token: string | undefined) {
  return server.request(rights.method, api(call.path), { ...call.options, ...(token ? { token } : {}) });
}

/** Tokens that must not open anything: expired, signed with another key, unsigned, or not a token at all. */
async function brokenTokens(): Promise<Record<string, string>> {
  const signedIn = await ok(
    server.request<{ id: number }>('POST', api('/auth/signin'), {
      body: { userName: 'staff', password: DEMO_PASSWORD },
    }),
  );
  const staffId = signedIn.id;
  const claims = { sub: String(staffId), iss: 'vers', tv: 0, jti: randomUUID() };
  const sign = (key: string, expiresAt: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(expiresAt - 3600)
      .setExpirationTime(expiresAt)
      .sign(new TextEncoder().encode(key));
  const now = Math.floor(Date.now() / 1000);
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  return {
    expired: await sign(JWT_SECRET, now - 60),
    'another key': await sign('another-secret-that-is-long-enough-for-hs256', now + 3600),
    'alg none': `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...claims, exp: now + 3600 })}.`,
    'alg none, signature of ours': `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...claims, exp: now + 3600 })}.${(await sign(JWT_SECRET, now + 3600)).split('.')[2]}`,
    malformed: 'not-a-token',
  };
}

beforeAll(async () => {
  server = await startTestServer();
  for (const role of ALL_ROLES) tokenOfRole[role] = await server.signIn(userOfRole[role]);
  for (const { username } of OTHER_WORKSHOP) tokenOfOther[username] = await server.signIn(username);
  const lists = await ok(server.request<{ id: number }[]>('GET', api('/default-options?lang=de'), bearer(staff())));
  valueListId = lists[0]!.id;
  seededAddresses = (await server.database.db.select({ id: emailAddresses.id }).from(emailAddresses)).map(
    (row) => row.id,
  );
  await ok(
    server.request('PUT', api(`/workshops/${NORD}/icon`), {
      token: werkadmin(),
      rawBody: PNG_BASE64,
      headers: { 'content-type': 'text/plain' },
    }),
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the rights table', () => {
  it('names every route the app answers, once', () => {
    const answered = server.app.apiRoutes.map(keyOf).sort();
    expect(API_RIGHTS.map(keyOf).sort()).toEqual(answered);
    expect(Object.keys(CALLS).sort()).toEqual(answered);
  });

  it('holds for the HEAD route Fastify adds beside every GET route', async () => {
    for (const right of API_RIGHTS.filter((r) => r.method === 'GET' && !r.url.includes(':'))) {
      const head = await server.request('HEAD', right.url);
      expect(head.status, `HEAD ${right.url} without a token`).toBe(right.access === 'public' ? 200 : 401);
    }
  });

  it('is the one docs/security.md shows', () => {
    const doc = readFileSync(new URL('../../../../docs/security.md', import.meta.url), 'utf8');
    // Prettier pads the table's cells; the content is what counts.
    const normalise = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('|'))
        .map((line) => line.replace(/\s*\|\s*/g, '|').replace(/-{3,}/g, '---'));
    const table = rightsTableMarkdown();
    expect(normalise(doc).slice(0, table.split('\n').length)).toEqual(normalise(table));
  });
});

describe('refused calls', () => {
  it('answer 401 without a valid token, 403 to a role without rights, 404 for another workshop’s data, and change nothing', async () => {
    const broken = await brokenTokens();
    const calls = new Map<string, Call>();
    for (const rights of API_RIGHTS) calls.set(keyOf(rights), await CALLS[keyOf(rights)]!());
    const before = await databaseDigest(server.database);
    const wrong: string[] = [];
    const expectStatus = (what: string, status: number, expected: number) => {
      if (status !== expected) wrong.push(`${what}: ${status}, expected ${expected}`);
    };
    // A role without rights gets the route's own refusal code (rights.ts, `refusal`), else FORBIDDEN.
    const expectRefusal = (what: string, answer: { status: number; body: unknown }, rights: ApiRight) => {
      expectStatus(what, answer.status, 403);
      const code = (answer.body as { code?: unknown } | null)?.code;
      const expected = rights.refusal ?? 'FORBIDDEN';
      if (answer.status === 403 && code !== expected) wrong.push(`${what}: code ${String(code)}, expected ${expected}`);
    };

    for (const rights of API_RIGHTS) {
      const call = calls.get(keyOf(rights))!;
      if (rights.access === 'public') continue;
      const where = `${rights.method} ${call.path}`;
      expectStatus(`${where} without a token`, (await callAs(rights, call, undefined)).status, 401);
      for (const [name, token] of Object.entries(broken)) {
        expectStatus(`${where} with a token ${name}`, (await callAs(rights, call, token)).status, 401);
      }
      for (const role of ALL_ROLES) {
        if (!isAllowed(rights, role))
          expectRefusal(`${where} as ${role}`, await callAs(rights, call, tokenOfRole[role]), rights);
      }
      for (const other of OTHER_WORKSHOP) {
        if (!isAllowed(rights, other.role)) {
          expectRefusal(
            `${where} as ${other.username}`,
            await callAs(rights, call, tokenOfOther[other.username]),
            rights,
          );
        } else if (rights.tenancy === 'not-found') {
          expectStatus(
            `${where} as ${other.username}`,
            (await callAs(rights, call, tokenOfOther[other.username])).status,
            404,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await databaseDigest(server.database)).toEqual(before);
  });
});

describe('allowed calls', () => {
  it.each(API_RIGHTS.map((r) => [keyOf(r), r] as const))(
    '%s succeeds for every role the table names',
    async (_, rights) => {
      const roles = ALL_ROLES.filter((role) => isAllowed(rights, role));
      for (const role of roles) {
        // Signing out ends the token: that call gets a token of its own.
        const token = rights.url.endsWith('/signout') ? await server.signIn(userOfRole[role]) : tokenOfRole[role];
        const call = await CALLS[keyOf(rights)]!(role);
        const res = await callAs(rights, call, rights.access === 'public' ? undefined : token);
        expect(
          [200, 201, 202, 204],
          `${keyOf(rights)} as ${role}: ${res.status} ${JSON.stringify(res.body)}`,
        ).toContain(res.status);
        // A new password ends the user's sessions; the answer carries the new token.
        if (rights.url.endsWith('/current/password')) tokenOfRole[role] = (res.body as { token: string }).token;
      }
    },
  );
});

describe('another workshop’s data', () => {
  it('never appears in what a user of another workshop gets', async () => {
    const leaks: string[] = [];
    // A check code opens its one record to whoever holds it (`code`): not another workshop's data to look for.
    for (const rights of API_RIGHTS.filter(
      (r) => r.tenancy === 'own-only' || r.tenancy === 'own-or-keeper' || (r.method === 'GET' && r.tenancy !== 'code'),
    )) {
      for (const other of OTHER_WORKSHOP) {
        if (!isAllowed(rights, other.role)) continue;
        const call = await CALLS[keyOf(rights)]!();
        const res = await callAs(rights, call, tokenOfOther[other.username]);
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
        for (const marker of nordMarkers)
          if (text.includes(marker)) leaks.push(`${rights.method} ${call.path} as ${other.username}: ${marker}`);
        if (rights.tenancy === 'own-only' || rights.tenancy === 'own-or-keeper')
          expect(res.status, `${rights.method} ${call.path} as ${other.username}`).toBe(200);
      }
    }
    expect(leaks).toEqual([]);
  });
});
