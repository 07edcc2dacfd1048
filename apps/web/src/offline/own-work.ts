import { sessionStore } from '../app/session.ts';

/** Whose waiting work this session sends: the user's own, and rows from before owners were kept. */
export function isOwnWork(row: { owner?: number }, owner: number | undefined = sessionStore.get()?.id): boolean {
  return row.owner === undefined || row.owner === owner;
}
