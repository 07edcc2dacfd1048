import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { API_BASE, apiRight, ROLES, type Role } from '@vers/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { WAGON_NUMBER, createWagonOrder, push, wheelsetNumbers } from '../test/orders.ts';
import { type ApiResponse, DEMO_PASSWORD, startTestServer } from '../test/server.ts';
import { JSON_MEDIA_TYPE, TEXT_MEDIA_TYPE } from './openapi.ts';

/**
 * The OpenAPI document (/api/docs/json) against the server, over HTTP, for every operation it shows: the security it
 * declares (none: answers without a token; bearer: 401 without one), the body types it declares (each is taken, JSON
 * and plain text otherwise are refused), and every answer met on the way (its status is declared, and its
 * Content-Type is one the document gives for that status; a status without content answers no body).
 */

interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Document {
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
}

/** One valid call of a route: its path under /api/v1, its body (sent in each declared type), its own token. */
interface Call {
  path: string;
  body?: unknown;
  token?: string;
}

const server = await startTestServer();
afterAll(async () => {
  await server.close();
});

const api = (path: string) => `${API_BASE}${path}`;
const NORD = 1;
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const WAGON_TEMPLATE = readFileSync(new URL('../../../../docs/xml/example-wagon.xml', import.meta.url));

/** A user per role that calls are made as: of workshop Nord, the system admin, and the demo keeper's holder. */
const USERS = { staff: 'staff', werkadmin: 'werkadmin', admin: 'admin', holder: 'holder' } as const;
const [staff, werkadmin, admin, holder] = await server.signInAll([
  USERS.staff,
  USERS.werkadmin,
  USERS.admin,
  USERS.holder,
] as const);
const tokenOfRole: Partial<Record<Role, string>> = {
  [ROLES.WORKSHOP_STAFF]: staff,
  [ROLES.WORKSHOP_ADMIN]: werkadmin,
  [ROLES.ADMIN]: admin,
  [ROLES.HOLDER]: holder,
};

async function ok<T>(res: Promise<ApiResponse<T>>): Promise<T> {
  const answer = await res;
  if (answer.status >= 300) throw new Error(`fixture call answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

// --- Fresh resources of workshop Nord ---

/** A wagon order of Nord whose keeper marking names the demo holder's keeper (GATX). */
async function newKeeperOrder() {
  const orderId = await newOrder();
  const body = push(orderId, '$.Body.Wagen.technicalWaggonOutgoing.Halterkurzkennzeichen', 'D-GATX');
  await ok(server.request('POST', api('/activity'), { token: staff, body }));
  return orderId;
}
/** A keeper XML of such an order, once it is made. */
async function newKeeperDocument() {
  const orderId = await newKeeperOrder();
  const [asset] = await ok(
    server.request<{ id: string }[]>('POST', api(`/export/${orderId}/de`), {
      token: staff,
      body: { types: ['XML_KEEPER'] },
    }),
  );
  for (let tries = 0; ; tries++) {
    const detail = await ok(
      server.request<{ documents: { id: string; status: string }[] }>('GET', api(`/holder/orders/${orderId}`), {
        token: holder,
      }),
    );
    if (detail.documents.find((d) => d.id === asset!.id)?.status === 'AVAILABLE') return asset!.id;
    if (tries > 1800) throw new Error('the keeper XML was not made within 3 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
/** A notification mail of workshop Nord, sent (an order of it moved to IN_QA): its id. */
async function newMail() {
  const orderId = await newOrder();
  await ok(server.request('POST', api(`/orders/${orderId}/status`), { token: werkadmin, body: { status: 'IN_QA' } }));
  for (let tries = 0; ; tries++) {
    const mails = await ok(
      server.request<{ id: string; status: string }[]>('GET', api(`/notificationMails?workshopId=${NORD}`), {
        token: werkadmin,
      }),
    );
    const sent = mails.find((mail) => mail.status === 'SENT');
    if (sent) return sent.id;
    if (tries > 1800) throw new Error('no mail was sent within 3 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
/** A VKM no keeper has yet: five random capital letters. */
const freshVkm = () =>
  Array.from({ length: 5 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
async function newKeeper() {
  const body = await ok(
    server.request<{ id: number }>('POST', api('/keepers'), {
      token: admin,
      body: { name: 'OpenAPI-Halter', markings: [freshVkm()] },
    }),
  );
  return body.id;
}

const newOrder = async () => (await createWagonOrder(server, staff, 2)).id;
const change = (orderId: string) => push(orderId, '$.Body.Wagen.technicalWaggonIncoming.Eigengewicht', '23500');
async function newActivity() {
  const orderId = await newOrder();
  const body = change(orderId);
  const { co } = await ok(server.request<{ co: number }>('POST', api('/activity'), { token: staff, body }));
  return { id: body.id, orderId, counter: co };
}
const picture = (orderId: string) => ({
  id: randomUUID(),
  type: 'PICTURE',
  filename: 'radsatz.png',
  base64: PNG_BASE64,
  size: Buffer.from(PNG_BASE64, 'base64').length,
  orderId,
});
/** A picture as POST assets/upload's form: the text fields, the PNG's bytes in the part `file`. */
function pictureForm(orderId: string): FormData {
  const { base64, ...fields } = picture(orderId);
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  form.append('file', new Blob([Buffer.from(base64, 'base64')], { type: 'image/png' }), fields.filename);
  return form;
}
async function newPicture() {
  const body = picture(await newOrder());
  await ok(server.request('POST', api('/assets'), { token: staff, body }));
  return body.id;
}
async function newImport() {
  const body = {
    id: randomUUID(),
    type: 'IMPORT',
    filename: 'wagon.xml',
    base64: WAGON_TEMPLATE.toString('base64'),
    size: WAGON_TEMPLATE.length,
  };
  await ok(server.request('POST', api('/assets'), { token: staff, body }));
  return body.id;
}
async function newUser() {
  const { user, password } = await ok(
    server.request<{ user: { id: number; username: string }; password: string }>('POST', api('/users'), {
      token: werkadmin,
      body: {
        username: `o${randomUUID().slice(0, 8)}`,
        firstName: 'Open',
        lastName: 'Api',
        roles: [{ name: ROLES.WORKSHOP_STAFF }],
      },
    }),
  );
  return { ...user, password };
}
/** A workshop keeps at most 10 addresses: the oldest go while there are more than 8. */
async function makeRoomForAddress() {
  const listed = await ok(
    server.request<{ id: number }[]>('GET', api(`/emailAddress?workshopId=${NORD}`), { token: werkadmin }),
  );
  for (const { id } of listed.slice(0, Math.max(0, listed.length - 8))) {
    await ok(server.request('DELETE', api(`/emailAddress/${id}`), { token: werkadmin }));
  }
}
async function newEmailAddress() {
  await makeRoomForAddress();
  const { id } = await ok(
    server.request<{ id: number }>('POST', api(`/emailAddress?workshopId=${NORD}`), {
      token: werkadmin,
      body: { address: `${randomUUID().slice(0, 8)}@example.org`, languageCode: 'de' },
    }),
  );
  return id;
}
const [firstList] = await ok(
  server.request<{ id: number }[]>('GET', api('/default-options?lang=de'), { token: staff }),
);
const listId = firstList!.id;
async function newListValue() {
  const value = `O${randomUUID().slice(0, 6)}`;
  const { id } = await ok(
    server.request<{ id: number }>('POST', api(`/default-options/${listId}`), {
      token: admin,
      body: { value, text: value, global: true },
    }),
  );
  return { id, value };
}
await ok(
  server.request('PUT', api(`/workshops/${NORD}/icon`), {
    token: werkadmin,
    rawBody: PNG_BASE64,
    headers: { 'content-type': TEXT_MEDIA_TYPE },
  }),
);

/** A valid call of every route the document shows, keyed `METHOD /api/v1/path/:param` as the route is registered. */
const CALLS: Record<string, () => Promise<Call>> = {
  'POST /api/v1/auth/signin': async () => ({
    path: '/auth/signin',
    body: { userName: USERS.staff, password: DEMO_PASSWORD },
  }),
  // Signing out ends the token: a token of its own.
  'POST /api/v1/auth/signout': async () => ({ path: '/auth/signout', token: await server.signIn(USERS.staff) }),
  'GET /api/v1/auth/siteId': async () => ({ path: '/auth/siteId' }),
  'GET /api/v1/version/current': async () => ({ path: '/version/current' }),
  'GET /api/v1/toggles': async () => ({ path: '/toggles' }),
  'GET /api/v1/users/roles': async () => ({ path: '/users/roles' }),
  'GET /api/v1/users/current': async () => ({ path: '/users/current' }),
  'GET /api/v1/audit': async () => ({ path: '/audit' }),
  'POST /api/v1/users': async () => ({
    path: '/users',
    body: {
      username: `n${randomUUID().slice(0, 8)}`,
      firstName: 'A',
      lastName: 'B',
      roles: [{ name: ROLES.WORKSHOP_STAFF }],
    },
  }),
  'PUT /api/v1/users/:id': async () => ({
    path: `/users/${(await newUser()).id}`,
    body: { firstName: 'Neu', lastName: 'Name', roles: [{ name: ROLES.WORKSHOP_STAFF }], enabled: true },
  }),
  'PUT /api/v1/users/:id/changePassword': async () => ({
    path: `/users/${(await newUser()).id}/changePassword`,
    body: 'Fresh-Pass12',
  }),
  'DELETE /api/v1/users/:id': async () => ({ path: `/users/${(await newUser()).id}` }),
  // A new password ends the user's sessions: a user of its own.
  'PUT /api/v1/users/current/password': async () => {
    const user = await newUser();
    return {
      path: '/users/current/password',
      token: await server.signIn(user.username, user.password),
      body: { oldPassword: user.password, newPassword: 'Fresh-Pass12' },
    };
  },
  'GET /api/v1/workshops': async () => ({ path: '/workshops' }),
  'GET /api/v1/workshops/:id': async () => ({ path: `/workshops/${NORD}` }),
  'PUT /api/v1/workshops/:id': async () => ({
    path: `/workshops/${NORD}`,
    body: {
      name: 'VERS Demo-Werkstatt Nord',
      countryCode: 'de',
      email: 'nord@example.org',
      phone: '+49 40 1',
      fax: '',
      revNr: 'REV-1',
      siteId: 'DE-HH-09',
      addLastModifier: true,
    },
  }),
  'GET /api/v1/workshops/:id/icon': async () => ({ path: `/workshops/${NORD}/icon` }),
  'PUT /api/v1/workshops/:id/icon': async () => ({ path: `/workshops/${NORD}/icon`, body: PNG_BASE64 }),
  'GET /api/v1/emailAddress': async () => ({ path: `/emailAddress?workshopId=${NORD}` }),
  'POST /api/v1/emailAddress': async () => {
    await makeRoomForAddress();
    return {
      path: `/emailAddress?workshopId=${NORD}`,
      body: { address: `${randomUUID().slice(0, 8)}@example.org`, languageCode: 'en' },
    };
  },
  'PUT /api/v1/emailAddress/:id': async () => ({
    path: `/emailAddress/${await newEmailAddress()}`,
    body: { address: `${randomUUID().slice(0, 8)}@example.org`, languageCode: 'fr' },
  }),
  'DELETE /api/v1/emailAddress/:id': async () => ({ path: `/emailAddress/${await newEmailAddress()}` }),
  'GET /api/v1/default-options': async () => ({ path: '/default-options?lang=de' }),
  'GET /api/v1/default-options-with-values': async () => ({ path: '/default-options-with-values?lang=de' }),
  'GET /api/v1/default-options/:id': async () => ({ path: `/default-options/${listId}` }),
  'POST /api/v1/default-options/:id': async () => ({
    path: `/default-options/${listId}`,
    body: { value: `P${randomUUID().slice(0, 6)}`, text: 'Neu', global: false },
  }),
  'PUT /api/v1/default-options/:id/:valueId': async () => {
    const { id } = await newListValue();
    return {
      path: `/default-options/${listId}/${id}`,
      body: { id, value: `E${randomUUID().slice(0, 6)}`, text: 'Geändert', global: false },
    };
  },
  'DELETE /api/v1/default-options/:id/:valueId': async () => ({
    path: `/default-options/${listId}/${(await newListValue()).id}`,
  }),
  'GET /api/v1/orders': async () => ({ path: '/orders' }),
  'GET /api/v1/orders/page': async () => ({ path: '/orders/page?sort=status&direction=asc&status=open&search=21' }),
  'GET /api/v1/orders/changes': async () => ({ path: '/orders/changes' }),
  'GET /api/v1/dashboard': async () => ({ path: '/dashboard?days=7' }),
  'GET /api/v1/orders/:id': async () => ({ path: `/orders/${await newOrder()}` }),
  'POST /api/v1/orders': async () => ({
    path: '/orders',
    body: {
      id: randomUUID(),
      type: 'WAGON',
      contractor: 'DBC',
      externalOrderNumber: 'E',
      maintenanceNumber: WAGON_NUMBER,
      wagon: { number: WAGON_NUMBER, wheelsetsOutgoing: wheelsetNumbers(2).map((number) => ({ number })) },
    },
  }),
  'DELETE /api/v1/orders/:id': async () => ({ path: `/orders/${await newOrder()}` }),
  'PATCH /api/v1/orders/:id': async () => ({
    path: `/orders/${await newOrder()}`,
    body: { id: randomUUID(), position: 1, direction: 'TURNED' },
  }),
  'POST /api/v1/orders/:id/status': async () => ({
    path: `/orders/${await newOrder()}/status`,
    body: { status: 'IN_QA' },
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
  'POST /api/v1/activity': async () => ({ path: '/activity', body: change(await newOrder()) }),
  'POST /api/v1/activity/batch': async () => ({
    path: '/activity/batch',
    body: { activities: [change(await newOrder())] },
  }),
  'PATCH /api/v1/activity/:orderId/:counter/reverted': async () => {
    const { id, orderId, counter } = await newActivity();
    return { path: `/activity/${orderId}/${counter}/reverted`, body: { id } };
  },
  'POST /api/v1/assets': async () => ({ path: '/assets', body: picture(await newOrder()) }),
  'POST /api/v1/assets/upload': async () => ({ path: '/assets/upload', body: pictureForm(await newOrder()) }),
  'GET /api/v1/assets': async () => ({ path: `/assets?ids=${await newPicture()}` }),
  'GET /api/v1/assets/order/:orderId': async () => ({ path: `/assets/order/${await newOrder()}` }),
  'GET /api/v1/assets/:id': async () => ({ path: `/assets/${await newPicture()}` }),
  'GET /api/v1/assets/thumbnail/:id': async () => ({ path: `/assets/thumbnail/${await newPicture()}` }),
  'GET /api/v1/assets/download/:id': async () => ({ path: `/assets/download/${await newPicture()}` }),
  'GET /api/v1/assets/validation-result/:id/:orderType': async () => ({
    path: `/assets/validation-result/${await newImport()}/WAGON`,
  }),
  'DELETE /api/v1/assets/:id': async () => ({ path: `/assets/${await newPicture()}` }),
  'POST /api/v1/orders/:id/sign-off': async () => ({
    path: `/orders/${await newOrder()}/sign-off`,
    body: { id: randomUUID(), password: DEMO_PASSWORD, meaning: 'QUALITY_CHECK_PASSED', status: 'DONE' },
  }),
  'GET /api/v1/orders/:id/sign-offs': async () => ({ path: `/orders/${await newOrder()}/sign-offs` }),
  'GET /api/v1/sign-offs/:code': async () => {
    const signed = await ok(
      server.request<{ code: string }>('POST', api(`/orders/${await newOrder()}/sign-off`), {
        token: werkadmin,
        body: { id: randomUUID(), password: DEMO_PASSWORD, meaning: 'QUALITY_CHECK_PASSED', status: 'DONE' },
      }),
    );
    return { path: `/sign-offs/${signed.code}` };
  },
  'POST /api/v1/export/:orderId/:language': async () => ({
    path: `/export/${await newOrder()}/de`,
    body: { types: ['XML_WORKSHOP'] },
  }),
  'GET /api/v1/keepers': async () => ({ path: '/keepers' }),
  'POST /api/v1/keepers': async () => ({ path: '/keepers', body: { name: 'Neuer Halter', markings: [freshVkm()] } }),
  'PUT /api/v1/keepers/:id': async () => ({
    path: `/keepers/${await newKeeper()}`,
    body: { name: 'Umbenannt', markings: [freshVkm()] },
  }),
  'DELETE /api/v1/keepers/:id': async () => ({ path: `/keepers/${await newKeeper()}` }),
  'GET /api/v1/holder/orders': async () => {
    await newKeeperOrder();
    return { path: '/holder/orders?offset=0&limit=10&search=21' };
  },
  'GET /api/v1/holder/orders/:id': async () => ({ path: `/holder/orders/${await newKeeperOrder()}` }),
  'POST /api/v1/holder/orders/:id/documents': async () => ({
    path: `/holder/orders/${await newKeeperOrder()}/documents`,
    body: { type: 'XML_KEEPER', language: 'de' },
  }),
  'GET /api/v1/holder/documents/:id': async () => ({ path: `/holder/documents/${await newKeeperDocument()}` }),
  'GET /api/v1/notificationMails': async () => ({ path: `/notificationMails?workshopId=${NORD}` }),
  'GET /api/v1/notificationMails/:id/eml': async () => ({ path: `/notificationMails/${await newMail()}/eml` }),
  'GET /api/v1/deadlines': async () => {
    // An order with a deadline, so that the answer holds one.
    const orderId = await newOrder();
    const body = push(orderId, '$.Body.Wagen.technicalWaggonOutgoing.Revision.DatumLetzteFrist', '2030-01-20');
    await ok(server.request('POST', api('/activity'), { token: staff, body }));
    return { path: '/deadlines?within=30&overdue=true&today=2030-01-10' };
  },
};

const document = (await ok(server.request<Document>('GET', '/api/docs/json'))) as Document;
const OPERATIONS = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
    method: method.toUpperCase(),
    operation,
  })),
);

const MULTIPART_MEDIA_TYPE = 'multipart/form-data';
const mediaType = (header: string | null) => header?.split(';')[0]?.trim().toLowerCase() ?? null;
const bodyTypes = (operation: Operation) => Object.keys(operation.requestBody?.content ?? {});

/** The body in a media type: JSON as JSON text; plain text as the text itself, other values as their JSON. */
const encode = (body: unknown, type: string) =>
  type === TEXT_MEDIA_TYPE && typeof body === 'string' ? body : JSON.stringify(body);

async function send(method: string, call: Call, token: string | undefined, type?: string) {
  const withBody = call.body !== undefined && type !== undefined;
  // A form is sent as multipart/form-data (fetch writes the boundary into its Content-Type).
  const asForm = withBody && type === MULTIPART_MEDIA_TYPE && call.body instanceof FormData;
  return server.request(method, api(call.path), {
    ...(token ? { token } : {}),
    ...(asForm ? { form: call.body as FormData } : {}),
    ...(withBody && !asForm ? { rawBody: encode(call.body, type), headers: { 'content-type': type } } : {}),
  });
}

/** Problems of one answer against the document: an undeclared status, or a Content-Type the status does not give. */
function undeclared(operation: Operation, res: ApiResponse, what: string): string[] {
  const declared = operation.responses[String(res.status)];
  if (!declared) return [`${what}: ${res.status} is not declared (${Object.keys(operation.responses).join(', ')})`];
  const types = Object.keys(declared.content ?? {});
  const got = mediaType(res.headers.get('content-type'));
  if (types.length === 0) {
    return got === null && res.body === '' ? [] : [`${what}: ${res.status} declares no content, answered ${got}`];
  }
  return got !== null && types.includes(got) ? [] : [`${what}: ${res.status} answered ${got}, declared ${types}`];
}

describe('the OpenAPI document', () => {
  it('shows the routes this suite calls, each once', () => {
    expect(OPERATIONS.map((o) => o.key).sort()).toEqual(Object.keys(CALLS).sort());
    const answered = new Set(server.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    expect(OPERATIONS.filter((o) => !answered.has(o.key))).toEqual([]);
  });

  it('gives every operation a summary', () => {
    expect(OPERATIONS.filter((o) => !(o.operation as { summary?: string }).summary).map((o) => o.key)).toEqual([]);
  });

  it.each(OPERATIONS.map((o) => [o.key, o] as const))(
    '%s: security, body types and answers as the server has them',
    async (key, { method, operation }) => {
      const right = apiRight(method, key.slice(method.length + 1));
      if (!right) throw new Error(`${key} is not in the rights table`);
      const isPublic = (operation.security ?? document.security).length === 0;
      const { access } = right;
      const roleToken = typeof access === 'string' ? staff : access.map((role) => tokenOfRole[role]).find(Boolean);
      if (!roleToken) throw new Error(`${key}: no user of its roles in this suite`);
      const tokenOf = (call: Call) => (isPublic ? undefined : (call.token ?? roleToken));
      const declaredTypes = bodyTypes(operation);
      const problems: string[] = [];
      const check = (res: ApiResponse, what: string) => problems.push(...undeclared(operation, res, what));
      const succeeds = (res: ApiResponse, what: string) => {
        expect(res.status, `${key} ${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
        check(res, what);
      };
      const isRefused = (res: ApiResponse, status: number, what: string) => {
        expect(res.status, `${key} ${what}`).toBe(status);
        check(res, what);
      };

      // Refused calls first: they change nothing, so the call's resources are still there for an allowed one.
      const call = await CALLS[key]!();
      const anonymous = await send(method, call, undefined, declaredTypes[0]);
      if (isPublic) succeeds(anonymous, 'declares no security: without a token');
      else isRefused(anonymous, 401, 'declares bearer security: without a token');
      if (typeof access !== 'string') {
        // The holder takes the holder's calls only, and staff none of them; a call both take (the deadline list) the
        // system admin does not.
        const outsider = !access.includes(ROLES.HOLDER)
          ? holder
          : access.includes(ROLES.WORKSHOP_STAFF)
            ? admin
            : staff;
        isRefused(await send(method, call, outsider, declaredTypes[0]), 403, 'as a role it does not take');
      }
      if (operation.requestBody) {
        for (const other of [JSON_MEDIA_TYPE, TEXT_MEDIA_TYPE].filter((type) => !declaredTypes.includes(type))) {
          isRefused(await send(method, call, tokenOf(call), other), 415, `with a body of ${other}, not declared`);
        }
        if (operation.requestBody.required !== false) {
          isRefused(await send(method, call, tokenOf(call)), 400, 'without the body it declares required');
        }
      }

      // Allowed calls: one per declared body type, and one without a body where the body is optional.
      if (!operation.requestBody) succeeds(await send(method, call, tokenOf(call)), 'as a role it takes');
      for (const [index, type] of declaredTypes.entries()) {
        const fresh = index === 0 ? call : await CALLS[key]!();
        succeeds(await send(method, fresh, tokenOf(fresh), type), `with a body of ${type}`);
      }
      if (operation.requestBody?.required === false) {
        const fresh = await CALLS[key]!();
        succeeds(await send(method, fresh, tokenOf(fresh)), 'without the body it declares optional');
      }
      expect(problems).toEqual([]);
    },
  );
});
