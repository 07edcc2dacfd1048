import { hasAnyRole, ROLES, type Role } from '../roles.ts';

/**
 * Order statuses in docs/requirements/statuses.md#order-statuses, in the spec's order (which is also the order of the
 * status dialog's options).
 */
export const ORDER_STATUSES = {
  CREATED: 'CREATED',
  IN_CREATION: 'IN_CREATION',
  IN_WORK: 'IN_WORK',
  IN_QA: 'IN_QA',
  DONE: 'DONE',
  DONE_ARCHIVE_REQUESTED: 'DONE_ARCHIVE_REQUESTED',
  DONE_ARCHIVED: 'DONE_ARCHIVED',
} as const;

export type OrderStatus = (typeof ORDER_STATUSES)[keyof typeof ORDER_STATUSES];

export const ALL_ORDER_STATUSES: readonly OrderStatus[] = Object.values(ORDER_STATUSES);

export const ORDER_TYPES = {
  WAGON: 'WAGON',
  WHEELSET: 'WHEELSET',
} as const;

export type OrderType = (typeof ORDER_TYPES)[keyof typeof ORDER_TYPES];

export const ALL_ORDER_TYPES: readonly OrderType[] = Object.values(ORDER_TYPES);

/** Statuses in which work on the order has begun (docs/requirements/statuses.md#started-statuses). */
export const STARTED_ORDER_STATUSES: readonly OrderStatus[] = [
  ORDER_STATUSES.IN_WORK,
  ORDER_STATUSES.IN_QA,
  ORDER_STATUSES.DONE,
  ORDER_STATUSES.DONE_ARCHIVED,
];

/** Statuses that make every input read-only; DONE_ARCHIVE_REQUESTED counts because it is shown as DONE. */
export const READ_ONLY_ORDER_STATUSES: readonly OrderStatus[] = [
  ORDER_STATUSES.DONE,
  ORDER_STATUSES.DONE_ARCHIVE_REQUESTED,
  ORDER_STATUSES.DONE_ARCHIVED,
];

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ALL_ORDER_STATUSES as readonly string[]).includes(value);
}

export function isOrderType(value: unknown): value is OrderType {
  return typeof value === 'string' && (ALL_ORDER_TYPES as readonly string[]).includes(value);
}

/** The server's DONE_ARCHIVE_REQUESTED is an internal step; users see and treat it as DONE. */
export function displayStatus(status: OrderStatus): OrderStatus {
  return status === ORDER_STATUSES.DONE_ARCHIVE_REQUESTED ? ORDER_STATUSES.DONE : status;
}

export function isStartedStatus(status: OrderStatus): boolean {
  return STARTED_ORDER_STATUSES.includes(displayStatus(status));
}

export function isReadOnlyStatus(status: OrderStatus): boolean {
  return READ_ONLY_ORDER_STATUSES.includes(status);
}

/** The QA role that owns the final archive step for an order type. */
export function qaRoleFor(orderType: OrderType): Role {
  return orderType === ORDER_TYPES.WAGON ? ROLES.WORKSHOP_WAGON_QA : ROLES.WORKSHOP_WHEELSET_QA;
}

/**
 * What the quality manager (ROLE_WORKSHOP_QA) may set on an order of either type: send it back to work, take it into
 * the check, and pass it as done (issue 21). The spec names the role but no status rule for it; it is a quality
 * role for both order types, so it gets the check's own steps, but not the creation steps, and not DONE_ARCHIVED,
 * which the spec keeps to the wagon or wheelset QA matching the order.
 */
export const QUALITY_MANAGER_STATUSES: readonly OrderStatus[] = [
  ORDER_STATUSES.IN_WORK,
  ORDER_STATUSES.IN_QA,
  ORDER_STATUSES.DONE,
];

/**
 * Radio options of the status dialog (docs/requirements/statuses.md#status-dialog): every status but the current one,
 * in spec order. DONE_ARCHIVE_REQUESTED is never offered (the server sets it). DONE_ARCHIVED needs the QA role matching
 * the order type. The quality manager may choose QUALITY_MANAGER_STATUSES. Any other user who is neither workshop
 * admin nor that QA role may only hand the order to IN_QA. The spec shows no further transition graph, so none is
 * imposed.
 */
export function statusOptions(current: OrderStatus, orderType: OrderType, roles: readonly string[]): OrderStatus[] {
  const shown = displayStatus(current);
  return ALL_ORDER_STATUSES.filter((status) => status !== shown && maySetStatus(status, orderType, roles));
}

/**
 * The role rule alone: whether these roles may give an order of this type this status. The server checks this,
 * not `statusOptions`: the status the order has already is accepted too, since two tablets that both set IN_QA
 * offline both meant it — refusing the second would only show a harmless change to its user as "not applied".
 * A user holding several roles may set what any of them may.
 */
export function maySetStatus(target: OrderStatus, orderType: OrderType, roles: readonly string[]): boolean {
  const qaRole = qaRoleFor(orderType);
  if (target === ORDER_STATUSES.DONE_ARCHIVE_REQUESTED) return false;
  if (target === ORDER_STATUSES.DONE_ARCHIVED) return hasAnyRole(roles, [qaRole]);
  if (hasAnyRole(roles, [ROLES.WORKSHOP_ADMIN, qaRole])) return true;
  if (hasAnyRole(roles, [ROLES.WORKSHOP_QA]) && QUALITY_MANAGER_STATUSES.includes(target)) return true;
  return target === ORDER_STATUSES.IN_QA;
}
