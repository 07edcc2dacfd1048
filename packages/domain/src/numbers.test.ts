import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from './languages.ts';
import { formatNumber, formatRange } from './numbers.ts';

/** What each of the twelve languages writes for 27.5, -1424.3 and the range 27.5–36 mm. */
const EXPECTED: Record<Language, { half: string; negative: string; range: string }> = {
  de: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  bg: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  cs: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  en: { half: '27.5', negative: '-1424.3', range: '27.5–36 mm' },
  fr: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  hu: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  it: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  nl: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  pl: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  ro: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
  // Swedish writes the minus sign U+2212, as its own typography does.
  sv: { half: '27,5', negative: '\u22121424,3', range: '27,5–36 mm' },
  tr: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm' },
};

describe('formatNumber in the twelve languages', () => {
  it('covers every language', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...LANGUAGES].sort());
  });
  for (const language of LANGUAGES) {
    const expected = EXPECTED[language];
    it(`${language}: the language's decimal separator, no grouping, a range`, () => {
      expect(formatNumber(27.5, language)).toBe(expected.half);
      expect(formatNumber('27.5', language)).toBe(expected.half);
      expect(formatNumber('-1424.3', language)).toBe(expected.negative);
      expect(formatRange({ min: 27.5, max: 36 }, language, 'mm')).toBe(expected.range);
      // Integers and years look alike everywhere: no thousands separator.
      expect(formatNumber(2026, language)).toBe('2026');
      expect(formatNumber('120000', language)).toBe('120000');
    });
  }
});

describe('formatNumber', () => {
  it('keeps the places of a stored text, trailing zeros included', () => {
    expect(formatNumber('1424.300', 'de')).toBe('1424,300');
    expect(formatNumber('1424.300', 'en')).toBe('1424.300');
    expect(formatNumber('7', 'de')).toBe('7');
  });
  it('writes exactly the given places, rounding half away from zero as a decimal', () => {
    expect(formatNumber(1.005, 'de', 2)).toBe('1,01');
    expect(formatNumber('-1.005', 'en', 2)).toBe('-1.01');
    expect(formatNumber('2.5', 'de', 0)).toBe('3');
    expect(formatNumber(1424.3, 'de', 3)).toBe('1424,300');
    expect(formatNumber('0.1', 'fr', 2)).toBe('0,10');
  });
  it('never writes a minus sign for zero', () => {
    expect(formatNumber('-0.001', 'de', 2)).toBe('0,00');
    expect(formatNumber(-0, 'en')).toBe('0');
  });
  it('adds no binary noise and reads the exponent form', () => {
    expect(formatNumber(0.1 + 0.2, 'en')).toBe('0.30000000000000004');
    expect(formatNumber(1360 + 32.5, 'de')).toBe('1392,5');
    expect(formatNumber(1e-7, 'de')).toBe('0,0000001');
  });
  it('returns what is not a number as it is', () => {
    expect(formatNumber('', 'de')).toBe('');
    expect(formatNumber('n/a', 'de')).toBe('n/a');
    expect(formatNumber('27,5', 'de')).toBe('27,5');
    expect(formatNumber(Number.NaN, 'de')).toBe('NaN');
  });
});

describe('formatRange', () => {
  it('names one bound with ≥ or ≤ and leaves out a missing unit', () => {
    expect(formatRange({ min: 6.5 }, 'de', 'mm')).toBe('≥ 6,5 mm');
    expect(formatRange({ max: 1065.5 }, 'en')).toBe('≤ 1065.5');
    expect(formatRange({}, 'en', 'mm')).toBe('');
  });
});
