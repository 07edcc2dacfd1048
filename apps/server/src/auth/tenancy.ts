import { isSystemAdmin } from '@vers/domain';
import { notFound } from '../http/errors.ts';
import type { SessionUser } from './session.ts';

/**
 * The workshop a call acts on. System admins may name any; everybody else acts on their own workshop,
 * and naming another answers 404, so that another workshop's existence is not even confirmed.
 */
export function workshopInScope(user: SessionUser, requested: number | null | undefined): number | null {
  if (isSystemAdmin(user.roles)) return requested ?? user.workshopId;
  if (requested !== undefined && requested !== null && requested !== user.workshopId) throw notFound('Workshop');
  return user.workshopId;
}

/** True when the user may act on data of `workshopId`. */
export function reaches(user: SessionUser, workshopId: number | null): boolean {
  return isSystemAdmin(user.roles) || (workshopId !== null && workshopId === user.workshopId);
}
