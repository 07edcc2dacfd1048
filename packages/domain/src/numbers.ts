import type { Language } from './languages.ts';
import { decimalFromNumber, formatDecimal, parseDecimal, roundDecimal, shiftDecimal } from './orders/decimal.ts';

/**
 * Numbers as a user reads them (issue 20): the language's decimal separator ("27,5" in German, "27.5" in English),
 * beside `dates.ts`, which does the same for dates. Used by the editor's messages and fields and by the server's
 * documents; stored values and the XML export keep the '.' (they are data, not text for a reader).
 *
 * - No digit grouping: a measure such as 1424.3 mm is "1424,3", never "1.424,3", which a reader used to the other
 *   convention takes for one point four; a year stays 2026 in every language.
 * - Exact: the value is rounded as a decimal (half away from zero, the domain's rule for input and calculations)
 *   before Intl.NumberFormat writes it, so 1.005 to two places is "1,01" whatever the engine does with binary values.
 */

/** Intl.NumberFormat's smallest upper bound on fraction digits across engines. */
const MAX_FRACTION_DIGITS = 20;

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(language: Language, digits: number, style: 'decimal' | 'percent' = 'decimal'): Intl.NumberFormat {
  const id = `${language}:${digits}:${style}`;
  let known = formatters.get(id);
  if (!known) {
    known = new Intl.NumberFormat(language, {
      style,
      useGrouping: false,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(id, known);
  }
  return known;
}

/**
 * A number in the language's form. A stored text keeps its places ("1424.300" → "1424,300" in German), a number its
 * shortest form; with `decimals` the value is rounded half away from zero and written with exactly that many places
 * (as `toFixed` does). A text that is not a number ("", "n/a") is returned as it is: a label never fails for a value.
 */
export function formatNumber(value: number | string, language: Language, decimals?: number): string {
  let decimal;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    decimal = decimalFromNumber(value);
  } else {
    decimal = parseDecimal(value.trim());
    if (!decimal) return value;
  }
  const digits = Math.min(decimals ?? decimal.scale, MAX_FRACTION_DIGITS);
  const rounded = roundDecimal(decimal, digits);
  // A decimal string, not a Number: Intl writes its digits as they are (no binary rounding on the way).
  return formatter(language, digits).format(formatDecimal(rounded) as `${number}`);
}

/**
 * A share given in percent (0–100) as the language writes it: "8 %" in German (a no-break space), "8%" in English,
 * "%8" in Turkish. Places as the number has them.
 */
export function formatPercent(percent: number, language: Language): string {
  if (!Number.isFinite(percent)) return String(percent);
  const decimal = decimalFromNumber(percent);
  const digits = Math.min(decimal.scale, MAX_FRACTION_DIGITS);
  const share = shiftDecimal(roundDecimal(decimal, digits), -2);
  return formatter(language, digits, 'percent').format(formatDecimal(share) as `${number}`);
}

/**
 * A limit as a message names it: "27,5–36 mm", "≥ 6,5 mm", "≤ 1065 mm" (the en dash between two bounds, the unit
 * once at the end).
 */
export function formatRange(
  range: { min?: number | undefined; max?: number | undefined },
  language: Language,
  unit?: string,
): string {
  const after = unit ? ` ${unit}` : '';
  const { min, max } = range;
  if (min !== undefined && max !== undefined)
    return `${formatNumber(min, language)}–${formatNumber(max, language)}${after}`;
  if (min !== undefined) return `≥ ${formatNumber(min, language)}${after}`;
  if (max !== undefined) return `≤ ${formatNumber(max, language)}${after}`;
  return '';
}
