/**
 * Exact decimal arithmetic for the few places that round (numeric input, calculated fields). Binary floating
 * point holds 1.005 as 1.00499999…, so rounding it with Math.round or toFixed gives 1.00; these do not.
 * value = units / 10^scale.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

// Also covers JavaScript's exponent form (String(1e21) is "1e+21", String(1e-7) is "1e-7").
const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** Parses `-12.340` or `1.5e-7`; anything else (including "", "Infinity", "1,5") is null. */
export function parseDecimal(text: string): Decimal | null {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let units = BigInt(whole + fraction);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/**
 * A number taken at its shortest round-trip text (what the user typed, usually), not its binary value.
 * Throws on NaN and ±Infinity, which callers must have ruled out.
 */
export function decimalFromNumber(value: number): Decimal {
  const decimal = Number.isFinite(value) ? parseDecimal(String(value)) : null;
  if (!decimal) throw new RangeError(`not a finite number: ${value}`);
  return decimal;
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function subtractDecimals(a: Decimal, b: Decimal): Decimal {
  return addDecimals(a, { units: -b.units, scale: b.scale });
}

/** value × 10^power, exactly. */
export function shiftDecimal(value: Decimal, power: number): Decimal {
  const scale = value.scale - power;
  return scale >= 0 ? { units: value.units, scale } : { units: value.units * 10n ** BigInt(-scale), scale: 0 };
}

/**
 * Rounds half away from zero (1.005 → 1.01, −1.005 → −1.01) to at most `decimals` places. A value with
 * fewer places is returned as it is, not padded.
 */
export function roundDecimal(value: Decimal, decimals: number): Decimal {
  assertDecimalPlaces(decimals);
  if (value.scale <= decimals) return value;
  const divisor = 10n ** BigInt(value.scale - decimals);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return { units: negative ? -quotient : quotient, scale: decimals };
}

/** Plain text with exactly `scale` places; zero never carries a minus sign. */
export function formatDecimal(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function decimalToNumber(value: Decimal): number {
  return Number(formatDecimal(value));
}

/** Decimal places come from the field catalogue; a bad count there is a bug to surface, not to guess around. */
export function assertDecimalPlaces(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimal places must be a non-negative integer, got ${decimals}`);
  }
}
