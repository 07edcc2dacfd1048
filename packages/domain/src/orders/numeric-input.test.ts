import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.ts';
import { formatNumber } from '../numbers.ts';
import { normalizeNumericInput } from './numeric-input.ts';

const ok = (value: string) => ({ ok: true, value });
const refused = { ok: false };

describe('normalizeNumericInput', () => {
  it('turns a comma into a dot and completes leading and trailing separators', () => {
    expect(normalizeNumericInput('12,5')).toEqual(ok('12.5'));
    expect(normalizeNumericInput('12.5')).toEqual(ok('12.5'));
    expect(normalizeNumericInput(',5')).toEqual(ok('0.5'));
    expect(normalizeNumericInput('.5')).toEqual(ok('0.5'));
    expect(normalizeNumericInput('5.')).toEqual(ok('5'));
    expect(normalizeNumericInput('5,')).toEqual(ok('5'));
  });
  it('keeps typed places, drops redundant leading zeros and surrounding spaces', () => {
    expect(normalizeNumericInput('1.50')).toEqual(ok('1.50'));
    expect(normalizeNumericInput('007')).toEqual(ok('7'));
    expect(normalizeNumericInput('00,25')).toEqual(ok('0.25'));
    expect(normalizeNumericInput(' 42 ')).toEqual(ok('42'));
  });
  it('accepts an empty value', () => {
    expect(normalizeNumericInput('')).toEqual(ok(''));
    expect(normalizeNumericInput('   ')).toEqual(ok(''));
  });
  it('refuses letters, inner spaces, several separators and lone separators', () => {
    for (const raw of ['1a', 'abc', '1 000', '1.000,5', '1..5', '1,2,3', '.', ',', '1e5', '+5', '½', '١٢']) {
      expect(normalizeNumericInput(raw), raw).toEqual(refused);
    }
  });
  it('accepts a leading minus only when the field is negatable', () => {
    expect(normalizeNumericInput('-1,5')).toEqual(refused);
    expect(normalizeNumericInput('-1,5', { negatable: true })).toEqual(ok('-1.5'));
    expect(normalizeNumericInput('-,5', { negatable: true })).toEqual(ok('-0.5'));
    expect(normalizeNumericInput('-', { negatable: true })).toEqual(refused);
    expect(normalizeNumericInput('1-', { negatable: true })).toEqual(refused);
    expect(normalizeNumericInput('--1', { negatable: true })).toEqual(refused);
    expect(normalizeNumericInput('-0', { negatable: true })).toEqual(ok('0'));
  });

  it('takes back every number as a field shows it in each language, the Swedish minus sign (U+2212) too', () => {
    for (const language of LANGUAGES) {
      for (const stored of ['-1234.5', '27.5', '0.125', '-3']) {
        expect(normalizeNumericInput(formatNumber(stored, language), { negatable: true })).toEqual(ok(stored));
      }
    }
    expect(normalizeNumericInput('\u22121,5')).toEqual(refused);
  });
  it('rounds half away from zero on the decimal text', () => {
    expect(normalizeNumericInput('1.005', { decimals: 2 })).toEqual(ok('1.01'));
    expect(normalizeNumericInput('1,0049999', { decimals: 2 })).toEqual(ok('1.00'));
    expect(normalizeNumericInput('-1.005', { decimals: 2, negatable: true })).toEqual(ok('-1.01'));
    expect(normalizeNumericInput('9.995', { decimals: 2 })).toEqual(ok('10.00'));
    expect(normalizeNumericInput('2.5', { decimals: 0 })).toEqual(ok('3'));
    expect(normalizeNumericInput('-0.001', { decimals: 2, negatable: true })).toEqual(ok('0.00'));
    expect(normalizeNumericInput('1.5', { decimals: 3 })).toEqual(ok('1.5'));
    expect(normalizeNumericInput('7', { decimals: 2 })).toEqual(ok('7'));
  });
  it('refuses a bad decimal count, which is a catalogue bug', () => {
    expect(() => normalizeNumericInput('1.5', { decimals: -1 })).toThrow(RangeError);
    expect(() => normalizeNumericInput('1.5', { decimals: 1.5 })).toThrow(RangeError);
  });

  const plainNumber = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !/e/i.test(String(n)));

  it('normalises any plain number, written with a comma, to the same number', () => {
    fc.assert(
      fc.property(plainNumber, (n) => {
        const result = normalizeNumericInput(String(n).replace('.', ','), { negatable: true });
        expect(result.ok).toBe(true);
        if (result.ok) expect(Number(result.value)).toBe(n === 0 ? 0 : n);
      }),
    );
  });
  it('is idempotent and its output never has a comma, a lone separator or a minus zero', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789.,-'), maxLength: 12 }),
        fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        (raw, decimals) => {
          const options = { negatable: true, decimals };
          const result = normalizeNumericInput(raw, options);
          if (!result.ok) return;
          expect(result.value).toMatch(/^(-?\d+(\.\d+)?)?$/);
          expect(result.value).not.toMatch(/^-0(\.0*)?$/);
          expect(normalizeNumericInput(result.value, options)).toEqual(result);
        },
      ),
    );
  });
  it('rounds to within half a unit of the last place', () => {
    fc.assert(
      fc.property(plainNumber, fc.integer({ min: 0, max: 6 }), (n, decimals) => {
        const result = normalizeNumericInput(String(n), { negatable: true, decimals });
        expect(result.ok).toBe(true);
        if (result.ok) {
          const [, places = ''] = result.value.split('.');
          expect(places.length).toBeLessThanOrEqual(decimals);
          expect(Math.abs(Number(result.value) - n)).toBeLessThanOrEqual(
            0.5 * 10 ** -decimals * (1 + 1e-9) + Math.abs(n) * 1e-15,
          );
        }
      }),
    );
  });
});
