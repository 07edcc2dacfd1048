import { describe, expect, it, vi } from 'vitest';
import buildFormatNumber from './mui-format-number.ts';

describe('buildFormatNumber (MUI number formatter made at first use)', () => {
  it('makes no Intl.NumberFormat until a number is formatted, then one for every number', () => {
    const Original = Intl.NumberFormat;
    let made = 0;
    vi.stubGlobal('Intl', {
      ...Intl,
      NumberFormat: function NumberFormat(...args: ConstructorParameters<typeof Intl.NumberFormat>) {
        made += 1;
        return new Original(...args);
      },
    });
    try {
      const format = buildFormatNumber('en-US');
      expect(made).toBe(0);
      expect(format(12345)).toBe('12,345');
      expect(format(1.5)).toBe('1.5');
      expect(made).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('writes what MUI writes: the locale grouping, and non-finite values as text', () => {
    expect(buildFormatNumber('de-DE')(20000)).toBe('20.000');
    expect(buildFormatNumber('en-US')(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(buildFormatNumber('en-US')(Number.NaN)).toBe('NaN');
  });

  it('falls back to plain text for a locale Intl refuses', () => {
    expect(buildFormatNumber('not a locale!')(1234)).toBe('1234');
  });
});
