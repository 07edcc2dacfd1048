import { describe, expect, it } from 'vitest';
import { ROLES } from './roles.ts';
import { MENU_ITEMS, guardRoute, menuFor, menuPath, routeByName, startPath } from './routes.ts';

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

  it('admits both system admin roles to the value lists', () => {
    expect(guardRoute(routeByName('defaultOptions'), { roles: [ROLES.ADMIN] })).toEqual({ kind: 'allow' });
    expect(guardRoute(routeByName('defaultOption'), { roles: [ROLES.VERS_ADMIN] })).toEqual({ kind: 'allow' });
  });
});

describe('menuFor', () => {
  /** The route each menu entry leads to. */
  const routeOf = {
    orders: 'orders',
    profile: 'profile',
    workshop: 'workshop',
    users: 'users',
    defaultOptions: 'defaultOptions',
  } as const;

  it.each([
    [ROLES.ADMIN, ['profile', 'users', 'defaultOptions']],
    [ROLES.VERS_ADMIN, ['profile', 'users', 'defaultOptions']],
    [ROLES.WORKSHOP_ADMIN, ['orders', 'profile', 'workshop', 'users']],
    [ROLES.WORKSHOP_STAFF, ['orders', 'profile']],
    [ROLES.WORKSHOP_WAGON_QA, ['orders', 'profile']],
    [ROLES.WORKSHOP_WHEELSET_QA, ['orders', 'profile']],
    [ROLES.WORKSHOP_QA, ['profile']],
    [ROLES.HOLDER, ['profile']],
  ])('shows %s exactly its entries', (role, expected) => {
    expect(menuFor([role])).toEqual(expected);
  });

  it('joins the entries of several roles without repeating one', () => {
    expect(menuFor([ROLES.WORKSHOP_ADMIN, ROLES.WORKSHOP_STAFF])).toEqual(['orders', 'profile', 'workshop', 'users']);
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
    for (const role of Object.values(ROLES)) {
      const shown = menuFor([role]);
      for (const item of MENU_ITEMS) {
        const allowed =
          guardRoute(routeByName(routeOf[item]), { roles: [role] }).kind === 'allow' && !ownWorkshopOnly(role, item);
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
    expect(startPath({ roles: [ROLES.HOLDER], workshop })).toBe('/profile');
    expect(startPath({ roles: [], workshop })).toBe('/profile');
  });
});

describe('menuPath', () => {
  it('points the workshop entry at the own workshop', () => {
    expect(menuPath('workshop', 7)).toBe('/workshop/7');
    expect(menuPath('defaultOptions', null)).toBe('/defaultoptions');
  });
});
