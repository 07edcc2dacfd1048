import { formatDecimal, roundDecimal } from './decimal.ts';

export interface NumericInputOptions {
  /** The field may hold negative values (docs/requirements/validation.md#numeric-input). */
  negatable?: boolean;
  /** Round half away from zero to this many places; without it the typed places are kept. */
  decimals?: number;
}

export type NumericInputResult = { ok: true; value: string } | { ok: false };

// Optional minus (the hyphen, or the minus sign U+2212 that Swedish numbers are shown with, formatNumber), digits, at
// most one separator (comma or dot), digits. Only ASCII digits: `\d` without /u.
const NUMERIC_TEXT = /^([-\u2212]?)(\d*)(?:[.,](\d*))?$/;

/**
 * Normalises what a user typed into a numeric field (docs/requirements/validation.md#numeric-input): comma becomes dot,
 * ".5" becomes "0.5", "5." becomes "5". Anything else (letters, inner spaces, two separators, a minus where none is
 * allowed, no digit at all) is refused and the caller restores the previous value. Surrounding spaces are dropped,
 * redundant leading zeros too, and a zero loses its minus sign, so one number has one stored text.
 */
export function normalizeNumericInput(raw: string, options: NumericInputOptions = {}): NumericInputResult {
  const text = raw.trim();
  if (text === '') return { ok: true, value: '' };
  const match = NUMERIC_TEXT.exec(text);
  if (!match) return { ok: false };
  const [, sign = '', whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return { ok: false };
  if (sign !== '' && !options.negatable) return { ok: false };
  // BigInt('') is 0n, so ".5" and "5." need no special case here.
  const magnitude = BigInt(whole + fraction);
  let value = { units: sign !== '' ? -magnitude : magnitude, scale: fraction.length };
  if (options.decimals !== undefined) value = roundDecimal(value, options.decimals);
  return { ok: true, value: formatDecimal(value) };
}
