import { STORED_DATE_FORMATS, YEAR_RANGE } from '@vers/domain';
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';

dayjs.extend(customParseFormat);

/** The field kinds entered with the date picker. */
export type DateKind = keyof typeof STORED_DATE_FORMATS;

/** The first and last day the picker offers: the years a year field takes (a year outside is a typing slip). */
export const FIRST_DAY = dayjs(`${YEAR_RANGE.min}-01-01`);
export const LAST_DAY = dayjs(`${YEAR_RANGE.max}-12-31`);

/** The picker's value for a stored date, null when the field is empty (or holds no date of its kind). */
export function pickerValue(stored: string, kind: DateKind): Dayjs | null {
  if (stored === '') return null;
  const parsed = dayjs(stored, STORED_DATE_FORMATS[kind], true);
  return parsed.isValid() ? parsed : null;
}

export type StoredDate = { ok: true; value: string | null } | { ok: false };

/**
 * What a picker value stores: the ISO text of its kind, null for an emptied field; not ok for a date the user has
 * not finished or that does not exist (31.04.), or a year outside the years a year field takes (a 4-digit year typed as 25).
 */
export function storedValue(value: Dayjs | null, kind: DateKind): StoredDate {
  if (value === null) return { ok: true, value: null };
  if (!value.isValid() || value.year() < YEAR_RANGE.min || value.year() > YEAR_RANGE.max) return { ok: false };
  return { ok: true, value: value.format(STORED_DATE_FORMATS[kind]) };
}
