/**
 * The sign-in limits (docs/security.md#sign-in-throttling): pure, so the numbers are tested without a clock.
 * A bucket is one kind of source whose failures are counted together.
 */
export const THROTTLE = {
  /** Failures older than this count no longer. */
  windowMinutes: 15,
  /** One account from one address (no trusted device): 5 failures, then growing delays. */
  accountAndAddress: 5,
  /** One account from every untrusted source together: against guessing from many addresses. */
  account: 20,
  /** One address for every account together, failures not users: against trying many accounts. */
  address: 30,
  /** One account on one trusted device: that device's own 5, then growing delays. */
  trustedDevice: 5,
  /** The first delay past a limit; each further failure doubles it, up to the window. */
  firstDelayMinutes: 1,
} as const;

const MINUTE = 60_000;

/**
 * Until when a bucket is closed, or null when it is open. `failures` are the times of its failures within the
 * window. Past the limit, a growing bucket waits 1, 2, 4, ... minutes after its latest failure (at most the
 * window); a fixed one waits until enough failures have left the window. Whichever comes first opens it.
 */
export function closedUntil(failures: readonly Date[], limit: number, growing: boolean, now: Date): Date | null {
  if (failures.length < limit) return null;
  const times = failures.map((d) => d.getTime()).sort((a, b) => a - b);
  const windowMs = THROTTLE.windowMinutes * MINUTE;
  // The moment the count falls below the limit again.
  const belowLimit = (times[times.length - limit] as number) + windowMs;
  const delay = Math.min(windowMs, THROTTLE.firstDelayMinutes * MINUTE * 2 ** (times.length - limit));
  const afterDelay = growing ? (times[times.length - 1] as number) + delay : belowLimit;
  const until = Math.min(belowLimit, afterDelay);
  return until > now.getTime() ? new Date(until) : null;
}

/** Seconds to say in Retry-After: whole seconds, at least 1. */
export function retryAfterSeconds(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
