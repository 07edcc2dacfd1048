import dayjs from 'dayjs';
import type { Language } from './languages.ts';

export interface DateFormats {
  date: string;
  dateTime: string;
  month: string;
}

const DOTTED: DateFormats = { date: 'DD.MM.YY', dateTime: 'DD.MM.YY HH:mm', month: 'MM.YYYY' };
const SLASHED: DateFormats = { date: 'DD/MM/YY', dateTime: 'DD/MM/YY HH:mm', month: 'MM/YYYY' };

/** Formats of administration §9: DD.MM.YY everywhere, but the English and French catalogues use DD/MM/YY. */
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
