import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from './languages.ts';
import { formatNumber, formatPercent, formatRange } from './numbers.ts';

/**
 * A no-break space (U+00A0 or the narrow U+202F, which CLDR versions choose differently for French): written `~`
 * here, so the test holds for Node's and Chromium's ICU alike while still refusing an ordinary, breaking space.
 */
const noBreak = (text: string) => text.replace(/[\u00a0\u202f]/g, '~');

/** What each of the twelve languages writes for 27.5, -1424.3, the range 27.5–36 mm and 8 percent. */
const EXPECTED: Record<Language, { half: string; negative: string; range: string; percent: string }> = {
  de: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8~%' },
  bg: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8%' },
  cs: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8~%' },
  en: { half: '27.5', negative: '-1424.3', range: '27.5–36 mm', percent: '8%' },
  fr: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8~%' },
  hu: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8%' },
  it: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8%' },
  nl: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8%' },
  pl: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8%' },
  ro: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '8~%' },
  // Swedish writes the minus sign U+2212, as its own typography does.
  sv: { half: '27,5', negative: '\u22121424,3', range: '27,5–36 mm', percent: '8~%' },
  // Turkish puts the percent sign first.
  tr: { half: '27,5', negative: '-1424,3', range: '27,5–36 mm', percent: '%8' },
};

describe('numbers in the twelve languages', () => {
  it('covers every language', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...LANGUAGES].sort());
  });
  for (const language of LANGUAGES) {
    const expected = EXPECTED[language];
    it(`${language}: the language's decimal separator, no grouping, a range, a percentage`, () => {
      expect(formatNumber(27.5, language)).toBe(expected.half);
      expect(formatNumber('27.5', language)).toBe(expected.half);
      expect(formatNumber('-1424.3', language)).toBe(expected.negative);
      expect(formatRange({ min: 27.5, max: 36 }, language, 'mm')).toBe(expected.range);
      expect(noBreak(formatPercent(8, language))).toBe(expected.percent);
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

describe('formatPercent', () => {
  it('takes the share in percent, exactly, with its places', () => {
    expect(formatPercent(7, 'en')).toBe('7%');
    expect(formatPercent(100, 'en')).toBe('100%');
    expect(formatPercent(0, 'tr')).toBe('%0');
    expect(noBreak(formatPercent(12.5, 'de'))).toBe('12,5~%');
  });
});

describe('formatRange', () => {
  it('names one bound with ≥ or ≤ and leaves out a missing unit', () => {
    expect(formatRange({ min: 6.5 }, 'de', 'mm')).toBe('≥ 6,5 mm');
    expect(formatRange({ max: 1065.5 }, 'en')).toBe('≤ 1065.5');
    expect(formatRange({}, 'en', 'mm')).toBe('');
  });
});
