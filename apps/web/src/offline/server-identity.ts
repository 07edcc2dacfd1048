import { SERVER_IDENTITY_HEADERS, type ServerIdentity, serverIdentitySchema } from '@vers/domain';
import { observeResponses } from '../app/api.ts';
import type { VersDb } from './versdb.ts';

/**
 * The database identity and generation (docs/requirements/sync.md#data-flow-restored-server): the newest one any answer
 * of the server carried, and per local database the one its counters belong to. When the two differ, the server was
 * restored (or replaced) since: the device re-sends what the server lacks and re-reads its orders (restore.ts).
 */
let observed: ServerIdentity | null = null;

observeResponses((headers) => {
  const database = headers.get(SERVER_IDENTITY_HEADERS.database);
  const generation = Number(headers.get(SERVER_IDENTITY_HEADERS.generation));
  const parsed = serverIdentitySchema.safeParse({ database, generation });
  if (parsed.success) observed = parsed.data;
});

/** The identity the server's newest answer carried; null before the first signed-in answer. */
export function observedIdentity(): ServerIdentity | null {
  return observed;
}

/** Also taken from the body of `GET activity/{id}/last`, which carries it explicitly. */
export function noteIdentity(identity: ServerIdentity): void {
  observed = identity;
}

const storageKey = (db: Pick<VersDb, 'name'>) => `vers-server-identity:${db.name}`;

/** The identity the device's server counters belong to; null when the device has not met the server yet. */
export function deviceIdentity(db: Pick<VersDb, 'name'>): ServerIdentity | null {
  try {
    const parsed = serverIdentitySchema.safeParse(JSON.parse(localStorage.getItem(storageKey(db)) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function setDeviceIdentity(db: Pick<VersDb, 'name'>, identity: ServerIdentity): void {
  localStorage.setItem(storageKey(db), JSON.stringify(identity));
}

export const sameIdentity = (a: ServerIdentity, b: ServerIdentity) =>
  a.database === b.database && a.generation === b.generation;
