import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDigit,
  earlierSameNumbers,
  formatVehicleNumber,
  isValidVehicleNumber,
  normalizeVehicleNumber,
  validateVehicleNumber,
} from './vehicle-number.ts';

/** The ordinary Luhn check, written independently: from the right, every second digit doubled. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  [...digits].reverse().forEach((char, index) => {
    const digit = Number(char) * (index % 2 === 1 ? 2 : 1);
    sum += Math.floor(digit / 10) + (digit % 10);
  });
  return sum % 10 === 0;
}

describe('checkDigit', () => {
  it('computes the worked examples of domain-notes', () => {
    expect(checkDigit('21812471217')).toBe(3);
    expect(checkDigit('51800843001')).toBe(0);
  });
  it('refuses anything but 11 digits', () => {
    expect(() => checkDigit('2181247121')).toThrow(RangeError);
    expect(() => checkDigit('218124712170')).toThrow(RangeError);
    expect(() => checkDigit('2181247121a')).toThrow(RangeError);
  });
  it('appending it gives a Luhn-valid number that validates', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 11, maxLength: 11 }), (first11) => {
        const number = `${first11}${checkDigit(first11)}`;
        expect(passesLuhn(number)).toBe(true);
        expect(validateVehicleNumber(number)).toEqual({
          ok: true,
          digits: number,
          formatted: formatVehicleNumber(number),
        });
      }),
    );
  });
  it('is the only digit that validates', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 11, maxLength: 11 }),
        fc.integer({ min: 0, max: 9 }),
        (first11, digit) => {
          expect(isValidVehicleNumber(`${first11}${digit}`)).toBe(digit === checkDigit(first11));
        },
      ),
    );
  });
});

describe('validateVehicleNumber', () => {
  it('accepts the real examples in any spacing and reformats them', () => {
    for (const raw of ['21 81 2471 217-3', '218124712173', ' 21-81-2471-217-3 ', '2181 2471 2173']) {
      expect(validateVehicleNumber(raw)).toEqual({ ok: true, digits: '218124712173', formatted: '21 81 2471 217-3' });
    }
    expect(validateVehicleNumber('51 80 0843 001-0')).toEqual({
      ok: true,
      digits: '518008430010',
      formatted: '51 80 0843 001-0',
    });
  });
  it('reports a wrong check digit', () => {
    expect(validateVehicleNumber('21 81 2471 217-4')).toEqual({ ok: false, reason: 'checkDigit' });
  });
  it('reports a wrong length', () => {
    expect(validateVehicleNumber('21812471217')).toEqual({ ok: false, reason: 'length' });
    expect(validateVehicleNumber('2181247121730')).toEqual({ ok: false, reason: 'length' });
  });
  it('reports foreign characters', () => {
    expect(validateVehicleNumber('21 81 2471 217-X')).toEqual({ ok: false, reason: 'characters' });
    expect(validateVehicleNumber('21.81.2471.217.3')).toEqual({ ok: false, reason: 'characters' });
    expect(validateVehicleNumber('abc')).toEqual({ ok: false, reason: 'characters' });
  });
  it('treats an empty value as valid', () => {
    expect(validateVehicleNumber('')).toEqual({ ok: true, digits: '', formatted: '' });
    expect(validateVehicleNumber('  - ')).toEqual({ ok: true, digits: '', formatted: '' });
  });
});

describe('normalizeVehicleNumber and formatVehicleNumber', () => {
  it('strips spaces and hyphens only', () => {
    expect(normalizeVehicleNumber(' 21 81-2471\t217-3 ')).toBe('218124712173');
    expect(normalizeVehicleNumber('21/81')).toBe('21/81');
  });
  it('formats 12 digits as NN NN NNNN NNN-C and leaves anything else alone', () => {
    expect(formatVehicleNumber('518008430010')).toBe('51 80 0843 001-0');
    expect(formatVehicleNumber('51800843001')).toBe('51800843001');
  });
});

describe('earlierSameNumbers', () => {
  const number = (first11: string) => `${first11}${checkDigit(first11)}`;
  const [a, b] = [number('43801234567'), number('43801234568')];

  it('names the earlier row of a number that comes again, printed or as digits', () => {
    expect(earlierSameNumbers([a, b, formatVehicleNumber(a), b])).toEqual([-1, -1, 0, 1]);
    expect(earlierSameNumbers([a, b, a, a])).toEqual([-1, -1, 0, 0]);
  });

  it('leaves empty and invalid numbers alone: they repeat nothing', () => {
    expect(earlierSameNumbers(['', '', ' ', a])).toEqual([-1, -1, -1, -1]);
    expect(earlierSameNumbers(['123456789012', '123456789012', a, b])).toEqual([-1, -1, -1, -1]);
  });
});
