import {
  type CreateUserRequest,
  type CreateUserResponse,
  type UpdateUserRequest,
  type User,
  type WorkshopSummary,
  createUserResponseSchema,
  roleRefSchema,
  userSchema,
  workshopSummarySchema,
} from '@vers/domain';
import i18next from 'i18next';
import { z } from 'zod';
import { ApiFailure, call } from '../../app/api.ts';

/**
 * Statuses this screen reports itself, naming the user concerned (docs/requirements/administration.md#error-catalogue):
 * no connection, bad requests, the codes of the user routes (403 ROLE_NOT_ALLOWED / SELF_CHANGE, 409 USER_EXISTS /
 * LAST_ADMIN), a user that is gone, and server errors, a gateway without its server (502, 504) included. 401 keeps its
 * global reaction (back to the sign-in).
 */
const HANDLED = [0, 400, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503, 504] as const;
const handles = HANDLED;

/**
 * The users of a workshop. A system admin names it (`workshopId`; null: the users of no workshop, the system's own);
 * everybody else gets their own workshop's, and passes undefined.
 */
export function fetchUsers(workshopId?: number | null): Promise<User[]> {
  const query = typeof workshopId === 'number' ? `?workshopId=${workshopId}` : '';
  return call(`users/current${query}`, z.array(userSchema), { handles });
}

/** Every workshop, for a system admin to pick one (GET workshops). */
export function fetchWorkshops(): Promise<WorkshopSummary[]> {
  return call('workshops', z.array(workshopSummarySchema), { handles });
}

/** The roles the signed-in admin may hand out. */
export async function fetchRoles(): Promise<string[]> {
  const roles = await call('users/roles', z.array(roleRefSchema), { handles });
  return roles.map((role) => role.name);
}

export function createUser(request: CreateUserRequest): Promise<CreateUserResponse> {
  return call('users', createUserResponseSchema, { method: 'POST', body: request, handles });
}

export function updateUser(id: number, request: UpdateUserRequest): Promise<User> {
  return call(`users/${id}`, userSchema, { method: 'PUT', body: request, handles });
}

/**
 * The server takes the password as a plain-text body; call() sends JSON, and a JSON string is read as that
 * same text, so the password travels as `"..."` with the JSON content type.
 */
export async function setPassword(id: number, password: string): Promise<void> {
  await call(`users/${id}/changePassword`, null, { method: 'PUT', body: password, handles });
}

export async function deleteUser(id: number): Promise<void> {
  await call(`users/${id}`, null, { method: 'DELETE', handles });
}

/** The catalogue key that explains a failure to the user: errors.<CODE> when there is one. */
export function failureReasonKey(error: unknown): string {
  if (!(error instanceof ApiFailure)) return 'errors.unexpected';
  if (error.status === 0) return 'errors.noConnection';
  if (error.status >= 502 && error.status <= 504) return 'errors.serverUnavailable';
  const key = `errors.${error.code}`;
  return i18next.exists(key) ? key : 'errors.unexpected';
}

/**
 * True when the session ended (401): the global reaction sends the user to the sign-in. A server that is away (5xx)
 * ends nothing: the page says so and offers to try again.
 */
export function endsSession(error: unknown): boolean {
  return error instanceof ApiFailure && error.status === 401;
}
