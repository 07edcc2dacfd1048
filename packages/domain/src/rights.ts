import type { ErrorCode } from './contract/errors.ts';
import { hasAnyRole, ROLES, type Role } from './roles.ts';

/*
 * Who may do what, written once: the role groups, every API call's rights (the server takes its routes' roles from
 * here, apps/server/src/app.ts), and through the groups the browser's screen guards and menu (routes.ts). The access
 * suite (apps/server/src/security/access.test.ts) calls every route as every role and checks the answers against this
 * table; docs/security.md shows it (a test keeps the two equal).
 */

/** The role groups of the specification and docs/decisions.md. */
export const ROLE_GROUPS = {
  /**
   * Who may change an order: add, edit, delete, take pictures, import, revert (docs/requirements/orders.md): the four
   * workshop roles of the spec's order routes. `mayWriteOrders` asks this group, in the server and in the browser.
   */
  orderWork: [ROLES.WORKSHOP_ADMIN, ROLES.WORKSHOP_STAFF, ROLES.WORKSHOP_WAGON_QA, ROLES.WORKSHOP_WHEELSET_QA],
  /**
   * Who may see the workshop's orders (list, order, changes, pictures, documents) and set their status within the
   * status rules (orders/status.ts): those who change them, and the quality manager (ROLE_WORKSHOP_QA), who reads
   * them only (issue 21).
   */
  orderRead: [
    ROLES.WORKSHOP_ADMIN,
    ROLES.WORKSHOP_STAFF,
    ROLES.WORKSHOP_WAGON_QA,
    ROLES.WORKSHOP_WHEELSET_QA,
    ROLES.WORKSHOP_QA,
  ],
  /** The quality roles, whose menu has the quality check (the orders waiting in IN_QA). */
  qualityCheck: [ROLES.WORKSHOP_QA, ROLES.WORKSHOP_WAGON_QA, ROLES.WORKSHOP_WHEELSET_QA],
  /** Users, workshop settings and e-mail addresses. */
  adminArea: [ROLES.VERS_ADMIN, ROLES.ADMIN, ROLES.WORKSHOP_ADMIN],
  /** Who may sign an order off (docs/decisions.md, issue 21): those who may set DONE (`maySetStatus`). */
  signOff: [ROLES.WORKSHOP_ADMIN, ROLES.WORKSHOP_WAGON_QA, ROLES.WORKSHOP_WHEELSET_QA, ROLES.WORKSHOP_QA],
  /**
   * The holder portal (issue 22): a holder user (ROLE_HOLDER, belonging to a keeper and to no workshop) reads the
   * wagon orders of its keeper's VKMs across all workshops, read-only, and nothing else of any workshop.
   */
  holder: [ROLES.HOLDER],
  /** Value lists, and everything across workshops. */
  systemAdmins: [ROLES.VERS_ADMIN, ROLES.ADMIN],
  /** The start page `/`. */
  home: [
    ROLES.VERS_ADMIN,
    ROLES.WORKSHOP_ADMIN,
    ROLES.WORKSHOP_STAFF,
    ROLES.WORKSHOP_WAGON_QA,
    ROLES.WORKSHOP_WHEELSET_QA,
  ],
} as const satisfies Record<string, readonly Role[]>;

export type Access = 'public' | 'signed-in' | readonly Role[];

/**
 * What a user of another workshop meets:
 * - `not-found`: the call names a resource of a workshop (an order, a picture, a user, a workshop, an address,
 *   or the workshop whose list it asks for); another workshop's answers 404, as if it did not exist;
 * - `own-only`: a list; it holds only the caller's own workshop's data;
 * - `shared`: no workshop's data (value lists, version, the caller's own session or password, or a new record of
 *   the caller's own workshop);
 * - `system`: every workshop's, for the system admins only, who reach every workshop anyway (the list of workshops);
 * - `code`: the one record whose unguessable code the caller holds (a printed release to service's check code), to
 *   anyone who has it, signed in or not;
 * - `keeper`: a holder's call (issue 22): only the wagon orders whose keeper marking names a VKM of the holder's
 *   keeper, in whichever workshop, and of those only what the holder portal shows; any other order, document or
 *   id answers 404, as if it did not exist;
 * - `own-or-keeper`: a list read by workshop users and holders alike (the deadline list, issue 23): a workshop user's
 *   holds only the own workshop's data, a holder's only the keeper's wagon orders (as `keeper`).
 */
export type Tenancy = 'not-found' | 'own-only' | 'shared' | 'system' | 'code' | 'keeper' | 'own-or-keeper';

export interface ApiRight {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As registered, under /api/v1. */
  url: string;
  access: Access;
  tenancy: Tenancy;
  /** The code of the 403 a signed-in user without the access gets, when it is more telling than FORBIDDEN. */
  refusal?: ErrorCode;
}

/** A call that changes an order; a role that may only read orders is refused it with ORDER_WRITE_FORBIDDEN. */
const orderWrite = (method: ApiRight['method'], url: string, tenancy: Tenancy): ApiRight => ({
  method,
  url,
  access: ROLE_GROUPS.orderWork,
  tenancy,
  refusal: 'ORDER_WRITE_FORBIDDEN',
});

const workshopSettings = (root: string): ApiRight[] => [
  { method: 'GET', url: `/api/v1/${root}/:id`, access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'PUT', url: `/api/v1/${root}/:id`, access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'GET', url: `/api/v1/${root}/:id/icon`, access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'PUT', url: `/api/v1/${root}/:id/icon`, access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
];

export const API_RIGHTS: readonly ApiRight[] = [
  { method: 'POST', url: '/api/v1/auth/signin', access: 'public', tenancy: 'shared' },
  { method: 'POST', url: '/api/v1/auth/signout', access: 'signed-in', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/auth/siteId', access: 'signed-in', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/version/current', access: 'public', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/toggles', access: 'public', tenancy: 'shared' },

  { method: 'GET', url: '/api/v1/users/roles', access: ROLE_GROUPS.adminArea, tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/users/current', access: ROLE_GROUPS.adminArea, tenancy: 'own-only' },
  { method: 'POST', url: '/api/v1/users', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'PUT', url: '/api/v1/users/:id', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'PUT', url: '/api/v1/users/:id/changePassword', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'DELETE', url: '/api/v1/users/:id', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'PUT', url: '/api/v1/users/current/password', access: 'signed-in', tenancy: 'shared' },

  { method: 'GET', url: '/api/v1/workshops', access: ROLE_GROUPS.systemAdmins, tenancy: 'system' },
  ...workshopSettings('workshops'),
  ...workshopSettings('workshop'),

  { method: 'GET', url: '/api/v1/emailAddress', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'POST', url: '/api/v1/emailAddress', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'PUT', url: '/api/v1/emailAddress/:id', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'DELETE', url: '/api/v1/emailAddress/:id', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/notificationMails', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/notificationMails/:id/eml', access: ROLE_GROUPS.adminArea, tenancy: 'not-found' },

  { method: 'GET', url: '/api/v1/audit', access: ROLE_GROUPS.adminArea, tenancy: 'own-only' },

  { method: 'GET', url: '/api/v1/default-options', access: 'signed-in', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/default-options-with-values', access: 'signed-in', tenancy: 'shared' },
  { method: 'GET', url: '/api/v1/default-options/:id', access: 'signed-in', tenancy: 'shared' },
  { method: 'POST', url: '/api/v1/default-options/:id', access: ROLE_GROUPS.systemAdmins, tenancy: 'shared' },
  { method: 'PUT', url: '/api/v1/default-options/:id/:valueId', access: ROLE_GROUPS.systemAdmins, tenancy: 'shared' },
  {
    method: 'DELETE',
    url: '/api/v1/default-options/:id/:valueId',
    access: ROLE_GROUPS.systemAdmins,
    tenancy: 'shared',
  },

  { method: 'GET', url: '/api/v1/orders', access: ROLE_GROUPS.orderRead, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/orders/page', access: ROLE_GROUPS.orderRead, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/orders/changes', access: ROLE_GROUPS.orderRead, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/dashboard', access: ROLE_GROUPS.orderRead, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/orders/:id', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  orderWrite('POST', '/api/v1/orders', 'shared'),
  orderWrite('DELETE', '/api/v1/orders/:id', 'not-found'),
  orderWrite('PATCH', '/api/v1/orders/:id', 'not-found'),
  // Open to every reader: which status each role may set is the status rule's (maySetStatus, orders/status.ts).
  { method: 'POST', url: '/api/v1/orders/:id/status', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },

  { method: 'GET', url: '/api/v1/activity/:orderId', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/activity/:orderId/last', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/activity/:orderId/conflicts', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/activity/:orderId/:counter', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  orderWrite('POST', '/api/v1/activity', 'not-found'),
  orderWrite('POST', '/api/v1/activity/batch', 'not-found'),
  orderWrite('PATCH', '/api/v1/activity/:orderId/:counter/reverted', 'not-found'),

  orderWrite('POST', '/api/v1/assets', 'not-found'),
  orderWrite('POST', '/api/v1/assets/upload', 'not-found'),
  { method: 'GET', url: '/api/v1/assets', access: ROLE_GROUPS.orderRead, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/assets/', access: ROLE_GROUPS.orderRead, tenancy: 'own-only' },
  { method: 'GET', url: '/api/v1/assets/order/:orderId', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/assets/:id', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/assets/download/:id', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/assets/thumbnail/:id', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  {
    method: 'GET',
    url: '/api/v1/assets/validation-result/:id/:orderType',
    access: ROLE_GROUPS.orderRead,
    tenancy: 'not-found',
  },
  orderWrite('DELETE', '/api/v1/assets/:id', 'not-found'),
  // A document is made from the order as it stands and changes none of its values: readers may make one.
  { method: 'POST', url: '/api/v1/export/:orderId/:language', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },

  { method: 'POST', url: '/api/v1/orders/:id/sign-off', access: ROLE_GROUPS.signOff, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/orders/:id/sign-offs', access: ROLE_GROUPS.orderRead, tenancy: 'not-found' },
  { method: 'GET', url: '/api/v1/sign-offs/:code', access: 'public', tenancy: 'code' },

  { method: 'GET', url: '/api/v1/keepers', access: ROLE_GROUPS.systemAdmins, tenancy: 'system' },
  { method: 'POST', url: '/api/v1/keepers', access: ROLE_GROUPS.systemAdmins, tenancy: 'system' },
  { method: 'PUT', url: '/api/v1/keepers/:id', access: ROLE_GROUPS.systemAdmins, tenancy: 'system' },
  { method: 'DELETE', url: '/api/v1/keepers/:id', access: ROLE_GROUPS.systemAdmins, tenancy: 'system' },

  { method: 'GET', url: '/api/v1/holder/orders', access: ROLE_GROUPS.holder, tenancy: 'keeper' },
  {
    method: 'GET',
    url: '/api/v1/deadlines',
    access: [...ROLE_GROUPS.orderRead, ...ROLE_GROUPS.holder],
    tenancy: 'own-or-keeper',
  },
  { method: 'GET', url: '/api/v1/holder/orders/:id', access: ROLE_GROUPS.holder, tenancy: 'keeper' },
  { method: 'POST', url: '/api/v1/holder/orders/:id/documents', access: ROLE_GROUPS.holder, tenancy: 'keeper' },
  { method: 'GET', url: '/api/v1/holder/documents/:id', access: ROLE_GROUPS.holder, tenancy: 'keeper' },
];

/**
 * Whether the roles may change orders (values, pictures, imports, adding and deleting them). The one rule for the
 * server's routes (through the table above) and the browser's read-only editor, list and picture screens.
 */
export function mayWriteOrders(held: readonly string[]): boolean {
  return hasAnyRole(held, ROLE_GROUPS.orderWork);
}

/** Whether the roles manage the whole system, across workshops. */
export function isSystemAdmin(held: readonly string[]): boolean {
  return hasAnyRole(held, ROLE_GROUPS.systemAdmins);
}

/** The rights of one API route as registered (method and path pattern), or undefined when the table lacks it. */
export function apiRight(method: string, url: string): ApiRight | undefined {
  return API_RIGHTS.find((right) => right.method === method && right.url === url);
}

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
  system: 'system admins only, all workshops',
  code: 'only the record whose printed code is given',
  keeper: 'only the wagon orders of the holder’s keeper, in any workshop; 404 for any other',
  'own-or-keeper': 'lists the own workshop’s only; a holder’s: the keeper’s wagon orders only',
};

/** The table of docs/security.md, rendered from RIGHTS. */
export function rightsTableMarkdown(): string {
  const rows = API_RIGHTS.map((r) => {
    const who =
      r.access === 'public'
        ? 'anyone'
        : r.access === 'signed-in'
          ? 'any signed-in user'
          : r.access.map((role) => ROLE_SHORT[role]).join(', ');
    const refusal = r.refusal ? ` (others: 403 ${r.refusal})` : '';
    return `| \`${r.method} ${r.url.replace('/api/v1', '')}\` | ${who}${refusal} | ${TENANCY_TEXT[r.tenancy]} |`;
  });
  return ['| call (under /api/v1) | who may call it | another workshop’s data |', '| --- | --- | --- |', ...rows].join(
    '\n',
  );
}
