import { ROLES, type Role } from '@vers/domain';

/**
 * Who may call what: the rights of every API call as the spec and docs/decisions.md give them, written down once
 * here, apart from the routes' own configuration. `access.test.ts` calls every route as every role, as a user of
 * another workshop and with broken tokens and checks the answers against this table, and docs/security.md shows
 * it (a test keeps the two equal). A route the app answers that is missing here fails that test.
 */
export type Access = 'public' | 'signed-in' | readonly Role[];

/**
 * What a user of another workshop meets:
 * - `not-found`: the call names a resource of a workshop (an order, a picture, a user, a workshop, an address,
 *   or the workshop whose list it asks for); another workshop's answers 404, as if it did not exist;
 * - `own-only`: a list; it holds only the caller's own workshop's data;
 * - `shared`: no workshop's data (value lists, version, the caller's own session or password, or a new record of
 *   the caller's own workshop).
 */
export type Tenancy = 'not-found' | 'own-only' | 'shared';

export interface RouteRights {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As registered, under /api/v1. */
  url: string;
  access: Access;
  tenancy: Tenancy;
}

const ORDERS: readonly Role[] = [
  ROLES.WORKSHOP_ADMIN,
  ROLES.WORKSHOP_STAFF,
  ROLES.WORKSHOP_WAGON_QA,
  ROLES.WORKSHOP_WHEELSET_QA,
];
const ADMIN_AREA: readonly Role[] = [ROLES.VERS_ADMIN, ROLES.ADMIN, ROLES.WORKSHOP_ADMIN];
const SYSTEM_ADMINS: readonly Role[] = [ROLES.VERS_ADMIN, ROLES.ADMIN];

const workshopSettings = (root: string): RouteRights[] => [
  { method: 'GET', url: `/api/v1/${root}/:id`, access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'PUT', url: `/api/v1/${root}/:id`, access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'GET', url: `/api/v1/${root}/:id/icon`, access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'PUT', url: `/api/v1/${root}/:id/icon`, access: ADMIN_AREA, tenancy: 'not-found' },
];

export const RIGHTS: readonly RouteRights[] = [
  { method: 'POST', url: '/api/v1/auth/signin', access: 'public', tenancy: 'shared' },
  { method: 'POST', url: '/api/v1/auth/signout', access: 'signed-in', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/auth/siteId', access: 'signed-in', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/version/current', access: 'public', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/toggles', access: 'public', tenancy: 'shared' },

  { method: 'GET', url: '/api/v1/users/roles', access: ADMIN_AREA, tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/users/current', access: ADMIN_AREA, tenancy: 'own-only' },
  { method: 'POST', url: '/api/v1/users', access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'PUT', url: '/api/v1/users/:id', access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'PUT', url: '/api/v1/users/:id/changePassword', access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'DELETE', url: '/api/v1/users/:id', access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'PUT', url: '/api/v1/users/current/password', access: 'signed-in', tenancy: 'shared' },

  ...workshopSettings('workshops'),
  ...workshopSettings('workshop'),

  { method: 'GET', url: '/api/v1/emailAddress', access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'POST', url: '/api/v1/emailAddress', access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'PUT', url: '/api/v1/emailAddress/:id', access: ADMIN_AREA, tenancy: 'not-found' },
  { method: 'DELETE', url: '/api/v1/emailAddress/:id', access: ADMIN_AREA, tenancy: 'not-found' },

  { method: 'GET', url: '/api/v1/default-options', access: 'signed-in', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/default-options-with-values', access: 'signed-in', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/default-options/:id', access: 'signed-in', tenancy: 'shared' },
  { method: 'POST', url: '/api/v1/default-options/:id', access: SYSTEM_ADMINS, tenancy: 'shared' },
  { method: 'PUT', url: '/api/v1/default-options/:id/:valueId', access: SYSTEM_ADMINS, tenancy: 'shared' },
  { method: 'DELETE', url: '/api/v1/default-options/:id/:valueId', access: SYSTEM_ADMINS, tenancy: 'shared' },

  { method: 'GET', url: '/api/v1/orders', access: ORDERS, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/orders/:id', access: ORDERS, tenancy: 'not-found' },
  { method: 'POST', url: '/api/v1/orders', access: ORDERS, tenancy: 'shared' },
  { method: 'DELETE', url: '/api/v1/orders/:id', access: ORDERS, tenancy: 'not-found' },
  { method: 'POST', url: '/api/v1/orders/:id/status', access: ORDERS, tenancy: 'not-found' },

  { method: 'GET', url: '/api/v1/activity/:orderId', access: ORDERS, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/activity/:orderId/last', access: ORDERS, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/activity/:orderId/conflicts', access: ORDERS, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/activity/:orderId/:counter', access: ORDERS, tenancy: 'not-found' },
  { method: 'POST', url: '/api/v1/activity', access: ORDERS, tenancy: 'not-found' },
  { method: 'POST', url: '/api/v1/activity/batch', access: ORDERS, tenancy: 'not-found' },
  { method: 'PATCH', url: '/api/v1/activity/:orderId/:counter/reverted', access: ORDERS, tenancy: 'not-found' },

  { method: 'POST', url: '/api/v1/assets', access: ORDERS, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/assets', access: ORDERS, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/assets/', access: ORDERS, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/assets/order/:orderId', access: ORDERS, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/assets/:id', access: ORDERS, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/assets/download/:id', access: ORDERS, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/assets/validation-result/:id/:orderType', access: ORDERS, tenancy: 'not-found' },
  { method: 'DELETE', url: '/api/v1/assets/:id', access: ORDERS, tenancy: 'not-found' },
  { method: 'POST', url: '/api/v1/export/:orderId/:language', access: ORDERS, tenancy: 'not-found' },
];

const ROLE_SHORT: Record<Role, string> = {
  [ROLES.ADMIN]: 'ADMIN',
  [ROLES.VERS_ADMIN]: 'VERS_ADMIN',
  [ROLES.WORKSHOP_ADMIN]: 'WORKSHOP_ADMIN',
  [ROLES.WORKSHOP_STAFF]: 'STAFF',
  [ROLES.WORKSHOP_WAGON_QA]: 'WAGON_QA',
  [ROLES.WORKSHOP_WHEELSET_QA]: 'WHEELSET_QA',
  [ROLES.WORKSHOP_QA]: 'QA',
  [ROLES.HOLDER]: 'HOLDER',
};

const TENANCY_TEXT: Record<Tenancy, string> = {
  'not-found': '404 for another workshop’s',
  'own-only': 'lists the own workshop’s only',
  shared: '—',
};

/** The table of docs/security.md, rendered from RIGHTS. */
export function rightsTableMarkdown(): string {
  const rows = RIGHTS.map((r) => {
    const who =
      r.access === 'public'
        ? 'anyone'
        : r.access === 'signed-in'
          ? 'any signed-in user'
          : r.access.map((role) => ROLE_SHORT[role]).join(', ');
    return `| \`${r.method} ${r.url.replace('/api/v1', '')}\` | ${who} | ${TENANCY_TEXT[r.tenancy]} |`;
  });
  return ['| call (under /api/v1) | who may call it | another workshop’s data |', '| --- | --- | --- |', ...rows].join(
    '\n',
  );
}
