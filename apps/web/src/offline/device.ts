import type { VersDb } from './versdb.ts';

/**
 * A v4 UUID. `crypto.randomUUID` exists only in secure contexts (HTTPS or localhost); a workshop tablet on a plain
 * HTTP intranet address still has `getRandomValues`, so the id is built from that there.
 */
export function newUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * This browser's id, made once and kept in local storage: every change records it, because a device always sees
 * its own earlier changes, sent or not (the conflict rule, packages/domain/src/orders/conflicts.ts). Kept per local
 * database, so that tests can run several simulated devices in one process.
 */
export function deviceId(db: Pick<VersDb, 'name'>): string {
  const key = `vers-device:${db.name}`;
  const known = localStorage.getItem(key);
  if (known) return known;
  const made = newUuid();
  localStorage.setItem(key, made);
  return made;
}
