import type { Language } from '@vers/domain';
import type { ApiFailure } from '../../app/api.ts';

export interface Message {
  key: string;
  values?: Record<string, string>;
}

/**
 * What to tell a user the server refused with 429: the time of day from which to try again (Retry-After), in the
 * user's language, or "a few minutes" when the answer did not say.
 */
export function tooManyAttempts(failure: ApiFailure, language: Language, now = new Date()): Message {
  if (failure.retryAfterSeconds === undefined) return { key: 'errors.TOO_MANY_ATTEMPTS' };
  // Rounded up to the next minute: "try again from 14:05" must not be a minute too early.
  const at = new Date(Math.ceil((now.getTime() + failure.retryAfterSeconds * 1000) / 60_000) * 60_000);
  const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(at);
  return { key: 'errors.TOO_MANY_ATTEMPTS_UNTIL', values: { time } };
}
