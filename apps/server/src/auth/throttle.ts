import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { lockSubject } from '../db/locks.ts';
import { loginAttempts, trustedDevices } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { THROTTLE, closedUntil, retryAfterSeconds } from './throttle-policy.ts';

/** Where a password attempt comes from: the account, the client's address and, when trusted, its device. */
export interface AttemptSource {
  username: string;
  address: string;
  /** The hash of the device id when this device has signed in as `username` before; null otherwise. */
  device: string | null;
}

/** The cookie that names a device (a random id; the server keeps only its hash, per user that signed in on it). */
export const DEVICE_COOKIE = 'vers_device';
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;
const DEVICE_COOKIE_DAYS = 365;

const hashDevice = (id: string) => createHash('sha256').update(id).digest('hex');

function deviceId(request: FastifyRequest): string | null {
  const id = request.cookies[DEVICE_COOKIE];
  return id !== undefined && DEVICE_ID.test(id) ? id : null;
}

/** The source of a request's attempt for `username`: trusted when its device cookie names a device of this user. */
export async function attemptSource(db: Db, request: FastifyRequest, username: string): Promise<AttemptSource> {
  const id = deviceId(request);
  const source = { username, address: request.ip, device: null };
  if (id === null) return source;
  const hash = hashDevice(id);
  const [trusted] = await db
    .select({ hash: trustedDevices.deviceHash })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.username, username), eq(trustedDevices.deviceHash, hash)));
  return trusted ? { ...source, device: hash } : source;
}

/** After a right password: this device is trusted for the user from now on, and keeps its cookie for a year. */
export async function trustDevice(db: Db, request: FastifyRequest, reply: FastifyReply, username: string) {
  const id = deviceId(request) ?? randomBytes(32).toString('base64url');
  await db
    .insert(trustedDevices)
    .values({ username, deviceHash: hashDevice(id) })
    .onConflictDoUpdate({
      target: [trustedDevices.username, trustedDevices.deviceHash],
      set: { lastUsed: new Date() },
    });
  reply.setCookie(DEVICE_COOKIE, id, {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: DEVICE_COOKIE_DAYS * 86_400,
  });
}

async function failuresSince(tx: Tx, where: ReturnType<typeof and>, since: Date): Promise<Date[]> {
  const rows = await tx
    .select({ at: loginAttempts.attemptedAt })
    .from(loginAttempts)
    .where(and(where, gt(loginAttempts.attemptedAt, since)));
  return rows.map((row) => row.at);
}

/**
 * Reserves one password check for `source`, or answers when it may try again. The reservation is a failure row
 * written, under a lock on the account (and the address), before the slow hash runs: however many attempts race,
 * on however many server instances, no more are checked than the limits allow. A right password takes the row
 * back (`forgiveFailures`).
 */
export async function reserveAttempt(
  db: Db,
  source: AttemptSource,
  now = new Date(),
): Promise<{ reserved: number } | { until: Date }> {
  return db.transaction(async (tx) => {
    await lockSubject(tx, `sign-in:account:${source.username}`);
    const since = new Date(now.getTime() - THROTTLE.windowMinutes * 60_000);
    const account = eq(loginAttempts.username, source.username);
    const buckets: [ReturnType<typeof and>, number, boolean][] = [];
    if (source.device !== null) {
      buckets.push([and(account, eq(loginAttempts.device, source.device)), THROTTLE.trustedDevice, true]);
    } else {
      await lockSubject(tx, `sign-in:address:${source.address}`);
      const untrusted = isNull(loginAttempts.device);
      const fromAddress = eq(loginAttempts.address, source.address);
      buckets.push([and(account, untrusted, fromAddress), THROTTLE.accountAndAddress, true]);
      buckets.push([and(account, untrusted), THROTTLE.account, true]);
      buckets.push([and(untrusted, fromAddress), THROTTLE.address, false]);
    }
    let until: Date | null = null;
    for (const [where, limit, growing] of buckets) {
      const closed = closedUntil(await failuresSince(tx, where, since), limit, growing, now);
      if (closed && (!until || closed > until)) until = closed;
    }
    if (until) return { until };
    const [row] = await tx
      .insert(loginAttempts)
      .values({ username: source.username, address: source.address, device: source.device, attemptedAt: now })
      .returning({ id: loginAttempts.id });
    return { reserved: row!.id };
  });
}

/** A right password: the source's failures for this account go (the reservation with them), and day-old rows. */
export async function forgiveFailures(db: Db, source: AttemptSource) {
  const account = eq(loginAttempts.username, source.username);
  await db
    .delete(loginAttempts)
    .where(
      source.device === null
        ? and(account, isNull(loginAttempts.device), eq(loginAttempts.address, source.address))
        : and(account, eq(loginAttempts.device, source.device)),
    );
  await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, new Date(Date.now() - 86_400_000)));
}

/** The answer for a closed bucket: 429 with Retry-After, which the app turns into "try again in N minutes". */
export function tooManyAttempts(reply: FastifyReply, until: Date, now = new Date()): ApiError {
  const seconds = retryAfterSeconds(until, now);
  reply.header('retry-after', String(seconds));
  return new ApiError(429, 'TOO_MANY_ATTEMPTS', `Too many failed attempts; try again in ${seconds} s`);
}
