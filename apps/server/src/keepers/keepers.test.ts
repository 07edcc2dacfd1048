import { type Keeper, ROLES, type User } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../test/server.ts';

/*
 * Keepers and holder users (issue 22): system admins manage keepers and their VKMs, a VKM belongs to one keeper at
 * most (also when two requests race), a keeper with users stays, and only system admins make holder users, each with
 * a keeper and no workshop.
 */

let server: TestServer;
let admin: string;
let versadmin: string;
let werkadmin: string;

const keepersCall = (method: string, path: string, body?: unknown, token = admin) =>
  server.request<Keeper & { code?: string; fields?: string[] }>(method, `/api/v1/keepers${path}`, {
    token,
    ...(body === undefined ? {} : { body }),
  });
const allKeepers = async () => (await server.request<Keeper[]>('GET', '/api/v1/keepers', { token: admin })).body;
const createUser = (body: Record<string, unknown>, token = admin) =>
  server.request<{ user: User; password: string; code?: string }>('POST', '/api/v1/users', { token, body });
let serial = 0;
const holderBody = (keeperId: number | null | undefined, extra: Record<string, unknown> = {}) => ({
  username: `halter${++serial}`,
  firstName: 'Hanne',
  lastName: 'Halter',
  roles: [{ name: ROLES.HOLDER }],
  ...(keeperId === undefined ? {} : { keeperId }),
  ...extra,
});

beforeAll(async () => {
  server = await startTestServer();
  [admin, versadmin, werkadmin] = await server.signInAll(['admin', 'versadmin', 'werkadmin']);
});
afterAll(async () => {
  await server?.close();
});

describe('keepers', () => {
  it('are created, listed with their VKMs and users, changed and deleted by system admins', async () => {
    const created = await keepersCall('POST', '', { name: '  Wascosa AG ', markings: ['wasco', ' was '] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Wascosa AG', markings: ['WAS', 'WASCO'], users: 0 });
    const listed = await keepersCall('GET', '');
    expect(listed.body).toContainEqual(
      expect.objectContaining({ name: 'GATX Rail Europe', markings: ['GATX'], users: 1 }),
    );
    const changed = await keepersCall(
      'PUT',
      `/${created.body.id}`,
      { name: 'Wascosa', markings: ['WASCO', 'WAC'] },
      versadmin,
    );
    expect(changed.body).toMatchObject({ id: created.body.id, name: 'Wascosa', markings: ['WAC', 'WASCO'] });
    // The VKM given up is free again.
    expect((await keepersCall('POST', '', { name: 'Other', markings: ['WAS'] })).status).toBe(201);
    expect((await keepersCall('DELETE', `/${created.body.id}`)).status).toBe(204);
    expect((await keepersCall('DELETE', `/${created.body.id}`)).status).toBe(404);
    expect((await keepersCall('PUT', `/${created.body.id}`, { name: 'x', markings: ['XYZ'] })).status).toBe(404);
    const trail = await server.request<{ action: string; target: string }[]>('GET', '/api/v1/audit', { token: admin });
    const actions = trail.body.filter((entry) => entry.action.startsWith('keeper.'));
    expect(actions.map((entry) => [entry.action, entry.target])).toEqual(
      expect.arrayContaining([
        ['keeper.created', 'Wascosa AG'],
        ['keeper.changed', 'Wascosa AG'],
        ['keeper.deleted', 'Wascosa'],
      ]),
    );
  });

  it('refuses a VKM another keeper has with 409 KEEPER_MARKING_TAKEN naming it', async () => {
    const taken = await keepersCall('POST', '', { name: 'Copy', markings: ['NEWK', 'gatx'] });
    expect(taken).toMatchObject({ status: 409, body: { code: 'KEEPER_MARKING_TAKEN', fields: ['markings.GATX'] } });
    const own = await keepersCall('POST', '', { name: 'Own', markings: ['OWNK'] });
    const moved = await keepersCall('PUT', `/${own.body.id}`, { name: 'Own', markings: ['OWNK', 'GATX'] });
    expect(moved).toMatchObject({ status: 409, body: { code: 'KEEPER_MARKING_TAKEN' } });
    expect((await allKeepers()).find((k) => k.id === own.body.id)?.markings).toEqual(['OWNK']);
    // Nothing of the refused keeper was kept.
    expect((await allKeepers()).some((k) => k.name === 'Copy')).toBe(false);
  });

  it('gives a VKM claimed by two requests at once to one keeper only', async () => {
    for (let round = 0; round < 3; round++) {
      const vkm = `RAC${'ABC'[round]}`;
      const answers = await Promise.all(
        ['Racer A', 'Racer B', 'Racer C'].map((name) => keepersCall('POST', '', { name, markings: [vkm] })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
      for (const refused of answers.filter((a) => a.status === 409)) {
        expect(refused.body).toMatchObject({ code: 'KEEPER_MARKING_TAKEN', fields: [`markings.${vkm}`] });
      }
      const owners = (await allKeepers()).filter((k) => k.markings.includes(vkm));
      expect(owners).toHaveLength(1);
    }
    // Two keepers taking the same VKM by a change at once: one keeps it.
    const [a, b] = await Promise.all(
      ['Swap A', 'Swap B'].map((name, i) => keepersCall('POST', '', { name, markings: [`SWP${'AB'[i]}`] })),
    );
    const changes = await Promise.all(
      [a!, b!].map((k) =>
        keepersCall('PUT', `/${k.body.id}`, { name: k.body.name, markings: [k.body.markings[0], 'SWAPZ'] }),
      ),
    );
    expect(changes.map((c) => c.status).sort()).toEqual([200, 409]);
    expect((await allKeepers()).filter((k) => k.markings.includes('SWAPZ'))).toHaveLength(1);
  });

  it('keeps a keeper that users belong to: 409 KEEPER_IN_USE', async () => {
    const keeper = await keepersCall('POST', '', { name: 'In Use', markings: ['INUSE'] });
    const user = await createUser(holderBody(keeper.body.id));
    expect(user.status).toBe(201);
    expect(user.body.user).toMatchObject({ keeperId: keeper.body.id, workshopId: null });
    expect(await keepersCall('DELETE', `/${keeper.body.id}`)).toMatchObject({
      status: 409,
      body: { code: 'KEEPER_IN_USE' },
    });
    expect((await allKeepers()).find((k) => k.id === keeper.body.id)?.users).toBe(1);
    const deleted = await server.request('DELETE', `/api/v1/users/${user.body.user.id}`, { token: admin });
    expect(deleted.status).toBe(204);
    expect((await keepersCall('DELETE', `/${keeper.body.id}`)).status).toBe(204);
  });

  it('refuses bad input with 400 and a code', async () => {
    for (const body of [
      { name: 'Bad', markings: ['G4TX'] },
      { name: 'Bad', markings: ['A'] },
      { name: 'Bad', markings: ['ABCDEF'] },
      { name: 'Bad', markings: [] },
      { name: '   ', markings: ['OKAY'] },
      { name: 'Bad' },
    ]) {
      const res = await keepersCall('POST', '', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
    }
    expect((await keepersCall('PUT', '/0', { name: 'x', markings: ['XYZ'] })).status).toBe(400);
  });

  it('are the system admins’: a workshop admin is refused', async () => {
    expect(await keepersCall('GET', '', undefined, werkadmin)).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    expect((await keepersCall('POST', '', { name: 'Mine', markings: ['MINE'] }, werkadmin)).status).toBe(403);
  });
});

describe('holder users', () => {
  it('are made by system admins only, each with an existing keeper, the holder role alone and no workshop', async () => {
    const gatx = (await allKeepers()).find((k) => k.name === 'GATX Rail Europe')!;
    expect(await createUser(holderBody(gatx.id), werkadmin)).toMatchObject({
      status: 403,
      body: { code: 'ROLE_NOT_ALLOWED' },
    });
    expect(await createUser(holderBody(undefined))).toMatchObject({ status: 400, body: { code: 'KEEPER_REQUIRED' } });
    expect(await createUser(holderBody(null))).toMatchObject({ status: 400, body: { code: 'KEEPER_REQUIRED' } });
    expect(await createUser(holderBody(987654))).toMatchObject({ status: 400, body: { code: 'KEEPER_UNKNOWN' } });
    expect(await createUser(holderBody(gatx.id, { workshopId: 1 }))).toMatchObject({
      status: 400,
      body: { code: 'HOLDER_ROLE_ALONE' },
    });
    expect(
      await createUser(holderBody(gatx.id, { roles: [{ name: ROLES.HOLDER }, { name: ROLES.WORKSHOP_STAFF }] })),
    ).toMatchObject({ status: 400, body: { code: 'HOLDER_ROLE_ALONE' } });
    const staffWithKeeper = holderBody(gatx.id, { roles: [{ name: ROLES.WORKSHOP_STAFF }], workshopId: 1 });
    expect(await createUser(staffWithKeeper)).toMatchObject({ status: 400, body: { code: 'KEEPER_NOT_HOLDER' } });
    // A workshop admin's own users get no keeper either.
    expect(await createUser({ ...staffWithKeeper, workshopId: undefined }, werkadmin)).toMatchObject({
      status: 400,
      body: { code: 'KEEPER_NOT_HOLDER' },
    });
    const made = await createUser(holderBody(gatx.id));
    expect(made.status).toBe(201);
    expect(made.body.user).toMatchObject({ keeperId: gatx.id, workshopId: null, roles: [{ name: ROLES.HOLDER }] });
  });

  it('change keeper by a system admin; a workshop admin reaches no holder', async () => {
    const first = await keepersCall('POST', '', { name: 'First', markings: ['FIRST'] });
    const second = await keepersCall('POST', '', { name: 'Second', markings: ['SECND'] });
    const made = await createUser(holderBody(first.body.id));
    const id = made.body.user.id;
    const update = (body: Record<string, unknown>, token = admin) =>
      server.request<User & { code?: string }>('PUT', `/api/v1/users/${id}`, {
        token,
        body: { firstName: 'Hanne', lastName: 'Halter', roles: [{ name: ROLES.HOLDER }], enabled: true, ...body },
      });
    expect((await update({})).body.keeperId).toBe(first.body.id);
    expect((await update({ keeperId: second.body.id })).body.keeperId).toBe(second.body.id);
    expect(await update({ keeperId: null })).toMatchObject({ status: 400, body: { code: 'KEEPER_REQUIRED' } });
    expect(await update({ keeperId: 987654 })).toMatchObject({ status: 400, body: { code: 'KEEPER_UNKNOWN' } });
    expect((await update({ keeperId: first.body.id }, werkadmin)).status).toBe(404);
    // The holder's session says the keeper it belongs to now.
    const session = await server.request<{ keeper: unknown }>('POST', '/api/v1/auth/signin', {
      body: { userName: made.body.user.username, password: made.body.password },
    });
    expect(session.body.keeper).toEqual({ id: second.body.id, name: 'Second', markings: ['SECND'] });
  });
});
