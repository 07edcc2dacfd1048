import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../app/api.ts';
import { tooManyAttempts } from './too-many-attempts.ts';

const now = new Date(2026, 10, 25, 14, 3, 20);

describe('tooManyAttempts', () => {
  it('names the time of day from which to try again, rounded up to the minute', () => {
    const failure = new ApiFailure(429, 'TOO_MANY_ATTEMPTS', 'wait', [], 90);
    expect(tooManyAttempts(failure, 'de', now)).toEqual({
      key: 'errors.TOO_MANY_ATTEMPTS_UNTIL',
      values: { time: '14:05' },
    });
    expect(tooManyAttempts(failure, 'en', now).values?.time).toMatch(/^0?2:05\s?PM$/);
  });

  it('says "a few minutes" when the server gave no time', () => {
    expect(tooManyAttempts(new ApiFailure(429, 'TOO_MANY_ATTEMPTS', 'wait'), 'de', now)).toEqual({
      key: 'errors.TOO_MANY_ATTEMPTS',
    });
  });
});
