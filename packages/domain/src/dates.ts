import dayjs from 'dayjs';
import type { Language } from './languages.ts';

export interface DateFormats {
  date: string;
  dateTime: string;
  month: string;
}

const DOTTED: DateFormats = { date: 'DD.MM.YY', dateTime: 'DD.MM.YY HH:mm', month: 'MM.YYYY' };
const SLASHED: DateFormats = { date: 'DD/MM/YY', dateTime: 'DD/MM/YY HH:mm', month: 'MM/YYYY' };

/**
 * Formats in docs/requirements/administration.md#dates: DD.MM.YY everywhere, but the English and French catalogues use
 * DD/MM/YY.
 */
export function dateFormats(language: Language): DateFormats {
  return language === 'en' || language === 'fr' ? SLASHED : DOTTED;
}

type DateInput = string | number | Date;

function format(value: DateInput | null | undefined, pattern: string): string {
  if (value === null || value === undefined || value === '') return '';
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.format(pattern) : '';
}

export function formatDate(value: DateInput | null | undefined, language: Language): string {
  return format(value, dateFormats(language).date);
}

export function formatDateTime(value: DateInput | null | undefined, language: Language): string {
  return format(value, dateFormats(language).dateTime);
}

export function formatMonth(value: DateInput | null | undefined, language: Language): string {
  return format(value, dateFormats(language).month);
}

/**
 * How date fields store their value, whatever the language shows: ISO, a day `YYYY-MM-DD`, a month `YYYY-MM`
 * (`isValidDateText` and the month rule of `writeIssue` check exactly these).
 */
export const STORED_DATE_FORMATS = { date: 'YYYY-MM-DD', monthAndYear: 'YYYY-MM' } as const;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a calendar date written YYYY-MM-DD that exists (no 31 April), as date fields store it. */
export function isValidDateText(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
