import { type Keeper, type KeeperRequest, keeperListSchema, keeperSchema } from '@vers/domain';
import { ApiFailure, call } from '../../app/api.ts';
import { failureReasonKey } from '../users/users-api.ts';

/** Statuses the keepers page reports itself (401 keeps its global reaction: back to the sign-in). */
const handles = [0, 400, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503, 504] as const;

/** Every keeper with its markings and how many users belong to it (GET keepers, system admins). */
export function fetchKeepers(): Promise<Keeper[]> {
  return call('keepers', keeperListSchema, { handles });
}

export function createKeeper(request: KeeperRequest): Promise<Keeper> {
  return call('keepers', keeperSchema, { method: 'POST', body: request, handles });
}

export function updateKeeper(id: number, request: KeeperRequest): Promise<Keeper> {
  return call(`keepers/${id}`, keeperSchema, { method: 'PUT', body: request, handles });
}

export async function deleteKeeper(id: number): Promise<void> {
  await call(`keepers/${id}`, null, { method: 'DELETE', handles });
}

/**
 * The reason a keeper call failed, in the catalogue: the two conflicts of the keeper routes say what to do (a marking
 * held by another keeper, named when the server names it; users still belonging to the keeper), anything else as the
 * users page says it.
 */
export function keeperFailure(error: unknown): { key: string; values?: Record<string, string> } {
  if (error instanceof ApiFailure && error.status === 409) {
    const code: string = error.code;
    if (code === 'KEEPER_MARKING_TAKEN')
      return error.fields.length > 0
        ? { key: 'keepers.error.markingTakenNamed', values: { markings: error.fields.join(', ') } }
        : { key: 'keepers.error.markingTaken' };
    if (code === 'KEEPER_IN_USE') return { key: 'keepers.error.inUse' };
  }
  return { key: failureReasonKey(error) };
}
