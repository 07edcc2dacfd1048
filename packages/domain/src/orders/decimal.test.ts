import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDecimals,
  decimalFromNumber,
  formatDecimal,
  parseDecimal,
  roundDecimal,
  shiftDecimal,
  subtractDecimals,
} from './decimal.ts';

const d = (text: string) => {
  const value = parseDecimal(text);
  if (!value) throw new Error(`bad test value ${text}`);
  return value;
};

describe('decimal', () => {
  it('parses plain and exponent forms and nothing else', () => {
    expect(parseDecimal('-12.340')).toEqual({ units: -12340n, scale: 3 });
    expect(parseDecimal('1.5e-7')).toEqual({ units: 15n, scale: 8 });
    expect(parseDecimal('1e+21')).toEqual({ units: 10n ** 21n, scale: 0 });
    for (const bad of ['', '1,5', 'Infinity', '.5', '5.', '--1', ' 1']) expect(parseDecimal(bad)).toBeNull();
  });
  it('formats with exactly its places and no minus zero', () => {
    expect(formatDecimal(d('0.05'))).toBe('0.05');
    expect(formatDecimal(d('-0.000'))).toBe('0.000');
    expect(formatDecimal(d('1.5e-7'))).toBe('0.00000015');
  });
  it('adds, subtracts and shifts exactly', () => {
    expect(formatDecimal(addDecimals(d('0.1'), d('0.2')))).toBe('0.3');
    expect(formatDecimal(subtractDecimals(d('180.215'), d('180')))).toBe('0.215');
    expect(formatDecimal(shiftDecimal(d('0.215'), 3))).toBe('215');
    expect(formatDecimal(shiftDecimal(d('0.2'), 3))).toBe('200');
  });
  it('rounds half away from zero', () => {
    expect(formatDecimal(roundDecimal(d('1.005'), 2))).toBe('1.01');
    expect(formatDecimal(roundDecimal(d('-1.005'), 2))).toBe('-1.01');
    expect(formatDecimal(roundDecimal(d('1.0049'), 2))).toBe('1.00');
    expect(formatDecimal(roundDecimal(d('0.5'), 0))).toBe('1');
    expect(formatDecimal(roundDecimal(d('-0.4'), 0))).toBe('0');
  });
  it('takes a number at its shortest text, round trip included', () => {
    expect(() => decimalFromNumber(Number.NaN)).toThrow(RangeError);
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(Number(formatDecimal(decimalFromNumber(n)))).toBe(n === 0 ? 0 : n);
      }),
    );
  });
});
