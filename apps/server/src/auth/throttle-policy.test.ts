import { describe, expect, it } from 'vitest';
import { THROTTLE, closedUntil, retryAfterSeconds } from './throttle-policy.ts';

const now = new Date('2026-11-25T12:00:00Z');
const minutesAgo = (...minutes: number[]) => minutes.map((m) => new Date(now.getTime() - m * 60_000));
const inMinutes = (date: Date | null) => (date === null ? null : (date.getTime() - now.getTime()) / 60_000);

describe('closedUntil', () => {
  it('stays open below the limit', () => {
    expect(closedUntil(minutesAgo(0, 0, 0, 0), 5, true, now)).toBeNull();
  });

  it('waits a minute after the limit, then doubles with every further failure, at most the window', () => {
    expect(inMinutes(closedUntil(minutesAgo(0, 0, 0, 0, 0), 5, true, now))).toBe(1);
    expect(inMinutes(closedUntil(minutesAgo(0, 0, 0, 0, 0, 0), 5, true, now))).toBe(2);
    expect(inMinutes(closedUntil(minutesAgo(0, 0, 0, 0, 0, 0, 0, 0), 5, true, now))).toBe(8);
    expect(inMinutes(closedUntil(minutesAgo(...Array<number>(12).fill(0)), 5, true, now))).toBe(THROTTLE.windowMinutes);
  });

  it('opens once the delay after the latest failure has passed', () => {
    expect(closedUntil(minutesAgo(3, 3, 3, 3, 2), 5, true, now)).toBeNull();
  });

  it('opens as soon as enough failures have left the window, even within a delay', () => {
    // Five failures 14.5 minutes ago and one just now: the delay would be 2 minutes, but in half a minute only
    // one failure is left in the window.
    expect(inMinutes(closedUntil(minutesAgo(14.5, 14.5, 14.5, 14.5, 14.5, 0), 5, true, now))).toBe(0.5);
  });

  it('keeps a fixed bucket closed until failures leave the window, however old the latest one is', () => {
    const thirty = minutesAgo(...Array.from({ length: 30 }, (_, i) => 14 - i * 0.1));
    expect(inMinutes(closedUntil(thirty, 30, false, now))).toBeCloseTo(1, 5);
    expect(closedUntil(thirty.slice(1), 30, false, now)).toBeNull();
  });
});

describe('retryAfterSeconds', () => {
  it('rounds up to whole seconds, at least one', () => {
    expect(retryAfterSeconds(new Date(now.getTime() + 1_200), now)).toBe(2);
    expect(retryAfterSeconds(now, now)).toBe(1);
  });
});
