import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMonth } from './dates.ts';

const when = new Date(2026, 2, 7, 9, 5); // 7 March 2026, 09:05 local time

describe('date formats', () => {
  it('uses DD.MM.YY in German and most languages', () => {
    expect(formatDate(when, 'de')).toBe('07.03.26');
    expect(formatDate(when, 'pl')).toBe('07.03.26');
    expect(formatDateTime(when, 'de')).toBe('07.03.26 09:05');
    expect(formatMonth(when, 'cs')).toBe('03.2026');
  });
  it('uses DD/MM/YY in English and French', () => {
    expect(formatDate(when, 'en')).toBe('07/03/26');
    expect(formatDateTime(when, 'fr')).toBe('07/03/26 09:05');
  });
  it('shows nothing for a missing or unreadable date', () => {
    expect(formatDate(null, 'de')).toBe('');
    expect(formatDate('', 'de')).toBe('');
    expect(formatDate('not a date', 'en')).toBe('');
  });
  it('reads ISO strings', () => {
    expect(formatDate('2025-12-31T10:00:00', 'de')).toBe('31.12.25');
  });
});
