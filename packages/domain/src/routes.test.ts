import { describe, expect, it } from 'vitest';
import { ROLE_GROUPS } from './rights.ts';
import { ROLES, type Role } from './roles.ts';
import { MENU_ITEMS, type RouteName, guardRoute, menuFor, menuPath, routeByName, startPath } from './routes.ts';

describe('guardRoute', () => {
  it('lets anyone reach the login page', () => {
    expect(guardRoute(routeByName('login'), null)).toEqual({ kind: 'allow' });
  });

  it('sends a visitor without a session to the login', () => {
    expect(guardRoute(routeByName('profile'), null)).toEqual({ kind: 'login' });
    expect(guardRoute(routeByName('home'), null)).toEqual({ kind: 'login' });
  });

  it('admits any signed-in user to the profile, even one without roles', () => {
    expect(guardRoute(routeByName('profile'), { roles: [] })).toEqual({ kind: 'allow' });
  });

  it('refuses a role that is not listed', () => {
    expect(guardRoute(routeByName('users'), { roles: [ROLES.WORKSHOP_STAFF] })).toEqual({ kind: 'forbidden' });
    expect(guardRoute(routeByName('orders'), { roles: [ROLES.HOLDER] })).toEqual({ kind: 'forbidden' });
    expect(guardRoute(routeByName('home'), { roles: [ROLES.ADMIN] })).toEqual({ kind: 'forbidden' });
  });

  it('admits a user holding one listed role among others', () => {
    const session = { roles: [ROLES.HOLDER, ROLES.WORKSHOP_ADMIN] };
    expect(guardRoute(routeByName('users'), session)).toEqual({ kind: 'allow' });
    expect(guardRoute(routeByName('orders'), session)).toEqual({ kind: 'allow' });
    expect(guardRoute(routeByName('defaultOptions'), session)).toEqual({ kind: 'forbidden' });
  });

  it('admits the quality manager to the screens that show orders, not to those that only change them', () => {
    const session = { roles: [ROLES.WORKSHOP_QA] };
    const shows: RouteName[] = ['orders', 'EditOrder', 'assets', 'images'];
    const changes: RouteName[] = ['addOrder', 'camera'];
    for (const name of shows) expect(guardRoute(routeByName(name), session), name).toEqual({ kind: 'allow' });
    for (const name of changes) expect(guardRoute(routeByName(name), session), name).toEqual({ kind: 'forbidden' });
    // The spec's start page stays without the role (startPath sends it to its first menu entry).
    expect(guardRoute(routeByName('home'), session)).toEqual({ kind: 'forbidden' });
  });

  it('keeps adding an order and the camera to the roles that change orders', () => {
    for (const role of [
      ROLES.WORKSHOP_ADMIN,
      ROLES.WORKSHOP_STAFF,
      ROLES.WORKSHOP_WAGON_QA,
      ROLES.WORKSHOP_WHEELSET_QA,
    ]) {
      for (const name of ['orders', 'addOrder', 'EditOrder', 'camera', 'assets', 'images'] as const) {
        expect(guardRoute(routeByName(name), { roles: [role] }), `${role} ${name}`).toEqual({ kind: 'allow' });
      }
    }
  });

  it('admits the holder to their wagon list and its orders only, and no one else', () => {
    for (const role of Object.values(ROLES)) {
      for (const name of ['holderOrders', 'holderOrder'] as const) {
        const expected = role === ROLES.HOLDER ? 'allow' : 'forbidden';
        expect(guardRoute(routeByName(name), { roles: [role] }).kind, `${role} ${name}`).toBe(expected);
      }
    }
    const workshopScreens: RouteName[] = ['home', 'orders', 'EditOrder', 'assets', 'images', 'users', 'keepers'];
    for (const name of workshopScreens)
      expect(guardRoute(routeByName(name), { roles: [ROLES.HOLDER] }).kind, name).toBe('forbidden');
  });

  it('admits both system admin roles to the keepers, and no workshop role', () => {
    expect(guardRoute(routeByName('keepers'), { roles: [ROLES.ADMIN] })).toEqual({ kind: 'allow' });
    expect(guardRoute(routeByName('keepers'), { roles: [ROLES.VERS_ADMIN] })).toEqual({ kind: 'allow' });
    expect(guardRoute(routeByName('keepers'), { roles: [ROLES.WORKSHOP_ADMIN] })).toEqual({ kind: 'forbidden' });
  });

  it('admits both system admin roles to the value lists', () => {
    expect(guardRoute(routeByName('defaultOptions'), { roles: [ROLES.ADMIN] })).toEqual({ kind: 'allow' });
    expect(guardRoute(routeByName('defaultOption'), { roles: [ROLES.VERS_ADMIN] })).toEqual({ kind: 'allow' });
  });
});

describe('menuFor', () => {
  /** The route each menu entry leads to. */
  const routeOf = {
    holderOrders: 'holderOrders',
    orders: 'orders',
    qualityCheck: 'orders',
    deadlines: 'deadlines',
    profile: 'profile',
    workshop: 'workshop',
    users: 'users',
    keepers: 'keepers',
    defaultOptions: 'defaultOptions',
  } as const;

  it.each([
    [ROLES.ADMIN, ['profile', 'users', 'keepers', 'defaultOptions']],
    [ROLES.VERS_ADMIN, ['profile', 'users', 'keepers', 'defaultOptions']],
    [ROLES.WORKSHOP_ADMIN, ['orders', 'deadlines', 'profile', 'workshop', 'users']],
    [ROLES.WORKSHOP_STAFF, ['orders', 'deadlines', 'profile']],
    [ROLES.WORKSHOP_WAGON_QA, ['orders', 'qualityCheck', 'deadlines', 'profile']],
    [ROLES.WORKSHOP_WHEELSET_QA, ['orders', 'qualityCheck', 'deadlines', 'profile']],
    [ROLES.WORKSHOP_QA, ['orders', 'qualityCheck', 'deadlines', 'profile']],
    [ROLES.HOLDER, ['holderOrders', 'deadlines', 'profile']],
  ])('shows %s exactly its entries', (role, expected) => {
    expect(menuFor([role])).toEqual(expected);
  });

  it('joins the entries of several roles without repeating one', () => {
    expect(menuFor([ROLES.WORKSHOP_ADMIN, ROLES.WORKSHOP_STAFF])).toEqual([
      'orders',
      'deadlines',
      'profile',
      'workshop',
      'users',
    ]);
  });

  it('never shows an entry whose route the role would be refused', () => {
    for (const role of Object.values(ROLES)) {
      for (const item of menuFor([role])) {
        expect(guardRoute(routeByName(routeOf[item]), { roles: [role] }).kind).toBe('allow');
      }
    }
  });

  it('shows every entry whose route the role may open (no route reachable only by typing its address)', () => {
    // The workshop entry leads to the user's own workshop: system admins have none and reach workshops otherwise.
    const ownWorkshopOnly = (role: string, item: string) => item === 'workshop' && role !== ROLES.WORKSHOP_ADMIN;
    // The quality check is the order list filtered to IN_QA: a view for the quality roles, not a route of its own.
    const qualityOnly = (role: Role, item: string) =>
      item === 'qualityCheck' && !(ROLE_GROUPS.qualityCheck as readonly Role[]).includes(role);
    for (const role of Object.values(ROLES)) {
      const shown = menuFor([role]);
      for (const item of MENU_ITEMS) {
        const allowed =
          guardRoute(routeByName(routeOf[item]), { roles: [role] }).kind === 'allow' &&
          !ownWorkshopOnly(role, item) &&
          !qualityOnly(role, item);
        expect({ role, item, shown: shown.includes(item) }).toEqual({ role, item, shown: allowed });
      }
    }
  });
});

describe('startPath', () => {
  const workshop = { id: 7 };
  it('is / for the roles the start page admits', () => {
    expect(startPath({ roles: [ROLES.WORKSHOP_STAFF], workshop })).toBe('/');
    expect(startPath({ roles: [ROLES.VERS_ADMIN], workshop: null })).toBe('/');
  });
  it('is the first menu entry for the others', () => {
    expect(startPath({ roles: [ROLES.ADMIN], workshop: null })).toBe('/profile');
    expect(startPath({ roles: [ROLES.HOLDER], workshop: null })).toBe('/holder');
    expect(startPath({ roles: [ROLES.WORKSHOP_QA], workshop })).toBe('/orders');
    expect(startPath({ roles: [], workshop })).toBe('/profile');
  });
});

describe('menuPath', () => {
  it('points the workshop entry at the own workshop', () => {
    expect(menuPath('workshop', 7)).toBe('/workshop/7');
    expect(menuPath('defaultOptions', null)).toBe('/defaultoptions');
    expect(menuPath('holderOrders', null)).toBe('/holder');
    expect(menuPath('keepers', null)).toBe('/keepers');
  });
  it('points the quality check at the order list filtered to the orders in quality check', () => {
    expect(menuPath('qualityCheck', 7)).toBe('/orders?status=IN_QA');
  });
});
