import type { Values } from '../catalogue/layout.ts';
import { resolveKey } from '../catalogue/resolve.ts';
import { isFilled, valueOf } from '../catalogue/values.ts';
import { ORDER_ROOTS } from './paths.ts';
import { wheelsetsMountedTwice } from './wheelset-swap.ts';
import { ORDER_STATUSES, type OrderStatus, type OrderType, displayStatus, isReadOnlyStatus } from './status.ts';

/*
 * The electronic sign-off of an order (issue 21): who states what about it, and over which content. The server
 * records it; the browser and the documents show it. The rules here are the only copy.
 */

/** What a signer states: the quality check passed, or the vehicle is released to service (Regulation (EU) 2019/779). */
export const SIGN_OFF_MEANINGS = ['QUALITY_CHECK_PASSED', 'RELEASED_TO_SERVICE'] as const;
export type SignOffMeaning = (typeof SIGN_OFF_MEANINGS)[number];

/** The statuses an order reaches only through a sign-off: the done ones, which make every input read-only. */
export const SIGNED_STATUSES: readonly OrderStatus[] = [ORDER_STATUSES.DONE, ORDER_STATUSES.DONE_ARCHIVED];

export function needsSignOff(target: OrderStatus): boolean {
  return SIGNED_STATUSES.includes(displayStatus(target));
}

/**
 * Whether an order with this status (after the sign-off's own status change, if any) can be signed off: only a done
 * order, whose values can no longer change without reopening it (which supersedes the sign-off).
 */
export function maySignOffAt(status: OrderStatus): boolean {
  return isReadOnlyStatus(status);
}

/**
 * The fields a release to service states and that must be entered before it is issued, relative to the order's
 * outgoing (or, where a value is the vehicle's, incoming) root. A wagon's: its ECM, the maintenance level executed and
 * the two statements of the mobile-service tab; a wheelset's: the maintenance level. The authorised person, role and
 * date are the sign-off's own.
 */
const RELEASE_REQUIREMENTS: Record<OrderType, readonly { path: string; either?: true; ticked?: true }[]> = {
  WAGON: [
    { path: 'Labeling.ECM', either: true },
    { path: 'ExecutedMaintenanceLevel' },
    { path: 'MobileService.MaintenancePerformedCorrectly', ticked: true },
    { path: 'MobileService.ReleaseToServiceGranted', ticked: true },
  ],
  WHEELSET: [{ path: 'MaintenanceLevel' }],
};

/** One item a release to service lacks: the field's path (outgoing root) and its catalogue label key. */
export interface ReleaseGap {
  key: string;
  label: string;
}

/**
 * What a release to service of this order still lacks; empty when it may be issued. Beside the fields above: a
 * wheelset mounted at two positions of a wagon (two devices offline may each mount it), named by the later position's
 * number key (`isOutgoingWheelsetNumberKey`), which no requirement above is; the record must say where it is.
 */
export function releaseGaps(type: OrderType, values: Values): ReleaseGap[] {
  const roots = ORDER_ROOTS[type];
  const mountedTwice = mountedTwiceOn(type, values);
  return RELEASE_REQUIREMENTS[type]
    .filter(({ path, either, ticked }) => {
      const out = values[`${roots.out}.${path}`];
      if (ticked) return valueOf(out) !== true;
      return !isFilled(out) && !(either && isFilled(values[`${roots.in}.${path}`]));
    })
    .map(({ path }) => {
      const key = `${roots.out}.${path}`;
      const field = resolveKey(type, key)?.field;
      return { key, label: `field.${field?.label ?? path.split('.').at(-1)}` };
    })
    .concat(mountedTwice.map((key) => ({ key, label: 'signOff.wheelsetMountedTwice' })));
}

/** A wagon's wheelset number keys mounted at an earlier position too (wheelset-swap.ts); a wheelset order has none. */
const mountedTwiceOn = (type: OrderType, values: Values) => (type === 'WAGON' ? wheelsetsMountedTwice(values) : []);

/** Why an order with these values is not signed off in this meaning, with the keys concerned; null when it may be. */
export type SignOffRefusal = { code: 'RELEASE_INCOMPLETE' | 'WHEELSET_MOUNTED_TWICE'; keys: string[] };

/**
 * The content rules of a sign-off: a release to service needs its entries (`releaseGaps`, which names a double
 * too); a quality check passed is not stated over a record that has one wheelset at two positions (two offline
 * devices may each have mounted it), since a done order is read-only and could be mended only by reopening it.
 */
export function signOffRefusal(meaning: SignOffMeaning, type: OrderType, values: Values): SignOffRefusal | null {
  if (meaning === 'RELEASED_TO_SERVICE') {
    const gaps = releaseGaps(type, values);
    return gaps.length > 0 ? { code: 'RELEASE_INCOMPLETE', keys: gaps.map((gap) => gap.key) } : null;
  }
  const mountedTwice = mountedTwiceOn(type, values);
  return mountedTwice.length > 0 ? { code: 'WHEELSET_MOUNTED_TWICE', keys: mountedTwice } : null;
}

/** The content a sign-off covers: the order's outgoing values (the vehicle as handed back), by key, without dates. */
export type SignedContent = Record<string, unknown>;

export function signedContent(type: OrderType, values: Values): SignedContent {
  const prefix = `${ORDER_ROOTS[type].out}.`;
  const content: SignedContent = {};
  for (const key of Object.keys(values).sort()) {
    if (key.startsWith(prefix) && isFilled(values[key])) content[key] = valueOf(values[key]);
  }
  return content;
}

/**
 * The text whose SHA-256 a sign-off records: the signed content as JSON with its keys sorted (`signedContent` sorts
 * them), so that the same values always give the same hash on any server.
 */
export function signedContentText(content: SignedContent): string {
  return JSON.stringify(
    Object.keys(content)
      .sort()
      .map((key) => [key, content[key]]),
  );
}

/** One difference between the content signed and the order now. */
export interface ContentChange {
  key: string;
  signed: unknown;
  now: unknown;
}

/** What changed in the outgoing values since the sign-off: every key whose value differs, in key order. */
export function contentChanges(signed: SignedContent, now: SignedContent): ContentChange[] {
  const keys = [...new Set([...Object.keys(signed), ...Object.keys(now)])].sort();
  return keys
    .filter((key) => JSON.stringify(signed[key] ?? null) !== JSON.stringify(now[key] ?? null))
    .map((key) => ({ key, signed: signed[key] ?? null, now: now[key] ?? null }));
}

/**
 * The code printed on a release to service for checking it: 16 characters of Crockford's base 32 (80 random bits),
 * shown in groups of four. Typed codes are read leniently: case, spaces, hyphens and the letters I, L and O are taken
 * as Crockford reads them.
 */
export const SIGN_OFF_CODE_LENGTH = 16;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function signOffCodeFromBytes(bytes: Uint8Array): string {
  let bits = 0;
  let buffer = 0;
  let code = '';
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && code.length < SIGN_OFF_CODE_LENGTH) {
      code += CROCKFORD[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (code.length < SIGN_OFF_CODE_LENGTH) throw new Error(`a sign-off code needs ${SIGN_OFF_CODE_LENGTH * 5} bits`);
  return code;
}

/** A typed or scanned code as stored, or null when it cannot be one. */
export function normalizeSignOffCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  return code.length === SIGN_OFF_CODE_LENGTH && [...code].every((c) => CROCKFORD.includes(c)) ? code : null;
}

/** `ABCD-EFGH-JKMN-PQRS`. */
export function formatSignOffCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/** The check page of a code, relative to the app's origin (printed as a QR code on the release to service). */
export function signOffCheckPath(code: string): string {
  return `/check/${code}`;
}
