import { dateFormats, valueIssue } from '@vers/domain';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { pickerValue, storedValue } from './date-value.ts';

describe('date field values', () => {
  it('a stored ISO date and month come back unchanged through the picker', () => {
    for (const [stored, kind] of [
      ['2025-12-24', 'date'],
      ['1965-03-01', 'date'],
      ['2024-02-29', 'date'],
      ['2026-11', 'monthAndYear'],
      ['1999-01', 'monthAndYear'],
    ] as const) {
      expect(storedValue(pickerValue(stored, kind), kind)).toEqual({ ok: true, value: stored });
    }
  });

  it('stores what the domain and the server accept', () => {
    const day = storedValue(dayjs('2025-12-24'), 'date');
    const month = storedValue(dayjs('2025-12-24'), 'monthAndYear');
    expect(day).toEqual({ ok: true, value: '2025-12-24' });
    expect(month).toEqual({ ok: true, value: '2025-12' });
    expect(valueIssue({ kind: 'date', path: 'D' }, day.ok && day.value)).toBeNull();
    expect(valueIssue({ kind: 'monthAndYear', path: 'M' }, month.ok && month.value)).toBeNull();
  });

  it('an empty field is empty, an emptied one clears', () => {
    expect(pickerValue('', 'date')).toBeNull();
    expect(storedValue(null, 'date')).toEqual({ ok: true, value: null });
  });

  it('a stored text that is no date of its kind shows an empty field', () => {
    expect(pickerValue('2025-12', 'date')).toBeNull();
    expect(pickerValue('24.12.25', 'date')).toBeNull();
    expect(pickerValue('2025-13', 'monthAndYear')).toBeNull();
  });

  it('an unfinished, impossible or out-of-range date is not stored', () => {
    expect(storedValue(dayjs('not a date'), 'date')).toEqual({ ok: false });
    // A 4-digit year typed as 25 in MM.YYYY.
    expect(storedValue(dayjs('2025-12-01').year(25), 'monthAndYear')).toEqual({ ok: false });
    expect(storedValue(dayjs('2200-01-01'), 'date')).toEqual({ ok: false });
    expect(storedValue(dayjs('1900-01-01'), 'date')).toEqual({ ok: true, value: '1900-01-01' });
  });

  it('a 2-digit year in DD.MM.YY is 2000-2068 up to 68, 1969-1999 from 69 (dayjs, as the picker parses it)', () => {
    const parse = (text: string) => dayjs(text, dateFormats('de').date, true);
    expect(storedValue(parse('24.12.25'), 'date')).toEqual({ ok: true, value: '2025-12-24' });
    expect(storedValue(parse('01.01.68'), 'date')).toEqual({ ok: true, value: '2068-01-01' });
    expect(storedValue(parse('01.01.69'), 'date')).toEqual({ ok: true, value: '1969-01-01' });
    expect(parse('31.04.25').isValid()).toBe(false);
    expect(dayjs('24/12/25', dateFormats('en').date, true).format('YYYY-MM-DD')).toBe('2025-12-24');
  });
});
