import { ROLE_GROUPS } from './rights.ts';
import { ORDER_STATUSES } from './orders/status.ts';
import { ROLES, hasAnyRole, type Role } from './roles.ts';

/**
 * The route table of both specification documents (docs/requirements/administration.md#admin-routes,
 * docs/requirements/orders.md#order-routes). `roles` undefined = any signed-in user; `public` = reachable without a
 * session.
 */
export const ROUTE_NAMES = {
  home: 'home',
  login: 'login',
  profile: 'profile',
  users: 'users',
  workshop: 'workshop',
  defaultOptions: 'defaultOptions',
  defaultOption: 'defaultOption',
  orders: 'orders',
  addOrder: 'addOrder',
  editOrder: 'EditOrder',
  camera: 'camera',
  assets: 'assets',
  images: 'images',
  check: 'check',
  holderOrders: 'holderOrders',
  holderOrder: 'holderOrder',
  keepers: 'keepers',
  deadlines: 'deadlines',
} as const;

export type RouteName = (typeof ROUTE_NAMES)[keyof typeof ROUTE_NAMES];

export interface RouteRule {
  name: RouteName;
  /** React Router path pattern. */
  path: string;
  roles?: readonly Role[];
  public?: boolean;
}

/** Who may see orders (the list, an order, its pictures and documents); the quality manager only reads them. */
const ORDER_ROLES = ROLE_GROUPS.orderRead;
/** Who may change orders: the screens that only add or change (add order, camera). */
const ORDER_WRITE_ROLES = ROLE_GROUPS.orderWork;
const ADMIN_AREA_ROLES = ROLE_GROUPS.adminArea;
const VALUE_LIST_ROLES = ROLE_GROUPS.systemAdmins;
/** The holder portal (issue 22): a keeper's users read their wagons' orders across all workshops, nothing else. */
const HOLDER_ROLES: readonly Role[] = [ROLES.HOLDER];
/** Keepers and their markings are the system admins' (issue 22), like the value lists. */
const KEEPER_ROLES = ROLE_GROUPS.systemAdmins;
/** The deadline list: whoever reads the workshop's orders, and holders for their keeper's wagons (GET deadlines). */
const DEADLINE_ROLES: readonly Role[] = [...ORDER_ROLES, ...HOLDER_ROLES];

export const ROUTES: readonly RouteRule[] = [
  { name: 'home', path: '/', roles: ROLE_GROUPS.home },
  { name: 'login', path: '/login', public: true },
  { name: 'profile', path: '/profile' },
  { name: 'users', path: '/users', roles: ADMIN_AREA_ROLES },
  { name: 'workshop', path: '/workshop/:workshopId', roles: ADMIN_AREA_ROLES },
  { name: 'defaultOptions', path: '/defaultoptions', roles: VALUE_LIST_ROLES },
  { name: 'defaultOption', path: '/defaultoptions/:optionId', roles: VALUE_LIST_ROLES },
  { name: 'orders', path: '/orders', roles: ORDER_ROLES },
  { name: 'addOrder', path: '/orders/add', roles: ORDER_WRITE_ROLES },
  { name: 'EditOrder', path: '/orders/:orderType/:orderId/:tabName?', roles: ORDER_ROLES },
  { name: 'camera', path: '/camera/:orderType/:orderId/:tabName', roles: ORDER_WRITE_ROLES },
  { name: 'assets', path: '/assets/:orderId/:orderType/:anzahlTeilfahrzeuge?', roles: ORDER_ROLES },
  { name: 'images', path: '/images/:orderId', roles: ORDER_ROLES },
  /** The check of a printed release to service's code (issue 21): for whoever holds the paper, signed in or not. */
  { name: 'check', path: '/check/:code?', public: true },
  /** The holder's wagon list and an order of it, read-only (issue 22). */
  { name: 'holderOrders', path: '/holder', roles: HOLDER_ROLES },
  { name: 'holderOrder', path: '/holder/orders/:orderId', roles: HOLDER_ROLES },
  { name: 'keepers', path: '/keepers', roles: KEEPER_ROLES },
  /** The deadline list (issue 23): the workshop's orders' due dates, or a holder's keeper's wagons'. */
  { name: 'deadlines', path: '/deadlines', roles: DEADLINE_ROLES },
];

export function routeByName(name: RouteName): RouteRule {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`unknown route ${name}`);
  return route;
}

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'login' } // no session: go to /login?redirect=...
  | { kind: 'forbidden' }; // session without a listed role: logout with reason 403, then /login?redirect=...

/** The access guard in docs/requirements/administration.md#access-guard. */
export function guardRoute(route: RouteRule, session: { roles: readonly string[] } | null): GuardDecision {
  if (route.public) return { kind: 'allow' };
  if (!session) return { kind: 'login' };
  return hasAnyRole(session.roles, route.roles) ? { kind: 'allow' } : { kind: 'forbidden' };
}

export const MENU_ITEMS = [
  'holderOrders',
  'orders',
  'qualityCheck',
  'deadlines',
  'profile',
  'workshop',
  'users',
  'keepers',
  'defaultOptions',
] as const;
export type MenuItem = (typeof MENU_ITEMS)[number];

/**
 * The side-drawer menu in docs/requirements/administration.md#menu. The value lists entry follows the route guard
 * (VERS admin and ADMIN), the more generous of the spec's two readings, so that a menu entry never
 * leads to a refusal and every route a role may open is reachable from the menu.
 */
const MENU_ROLES: Record<MenuItem, readonly Role[] | undefined> = {
  // First, so that a holder lands on their wagon list (startPath).
  holderOrders: HOLDER_ROLES,
  // Workshop admins too (issue 20): they may open every order route and set statuses, so the entry follows the
  // route's roles rather than the spec's menu list (staff and QA), which left them no way in.
  orders: ORDER_ROLES,
  // The quality roles' queue (issue 21): the order list showing the orders in IN_QA.
  qualityCheck: ROLE_GROUPS.qualityCheck,
  deadlines: DEADLINE_ROLES,
  profile: undefined,
  workshop: [ROLES.WORKSHOP_ADMIN],
  // System admins too (issue 20): their users page picks a workshop. The workshop entry stays the workshop admin's,
  // since it leads to the user's own workshop and a system admin has none.
  users: ADMIN_AREA_ROLES,
  keepers: KEEPER_ROLES,
  defaultOptions: VALUE_LIST_ROLES,
};

export function menuFor(roles: readonly string[]): MenuItem[] {
  return MENU_ITEMS.filter((item) => hasAnyRole(roles, MENU_ROLES[item]));
}

/** The order list's address parameter of its status filter (`/orders?status=IN_QA`). */
export const ORDER_LIST_STATUS_PARAM = 'status';
/** The order list's address parameter "created more than N days ago" (`/orders?status=open&olderThanDays=14`). */
export const ORDER_LIST_OLDER_THAN_PARAM = 'olderThanDays';

/** The order list filtered by a status filter (`open`, `done` or a status) and, if given, by age in days. */
export function orderListPath(status: string, olderThanDays?: number): string {
  const params = new URLSearchParams({ [ORDER_LIST_STATUS_PARAM]: status });
  if (olderThanDays !== undefined) params.set(ORDER_LIST_OLDER_THAN_PARAM, String(olderThanDays));
  return `/orders?${params.toString()}`;
}

/** Where a menu entry leads; the workshop entry points to the signed-in user's own workshop. */
export function menuPath(item: MenuItem, workshopId: number | null): string {
  switch (item) {
    case 'holderOrders':
      return '/holder';
    case 'orders':
      return '/orders';
    case 'qualityCheck':
      return `/orders?${ORDER_LIST_STATUS_PARAM}=${ORDER_STATUSES.IN_QA}`;
    case 'deadlines':
      return '/deadlines';
    case 'profile':
      return '/profile';
    case 'workshop':
      return `/workshop/${workshopId ?? ''}`;
    case 'users':
      return '/users';
    case 'keepers':
      return '/keepers';
    case 'defaultOptions':
      return '/defaultoptions';
  }
}

/**
 * The page a user lands on after signing in without a redirect, and for unknown paths: the start page `/`
 * when the role may open it, else the first entry of the role's menu (the profile at the latest). The
 * spec's `/` admits neither ROLE_ADMIN, ROLE_HOLDER nor ROLE_WORKSHOP_QA, who would otherwise be logged
 * out right after signing in; a holder so lands on their wagon list (issue 22).
 */
export function startPath(session: { roles: readonly string[]; workshop: { id: number } | null }): string {
  if (guardRoute(routeByName('home'), session).kind === 'allow') return '/';
  const [first] = menuFor(session.roles);
  return first ? menuPath(first, session.workshop?.id ?? null) : '/profile';
}
