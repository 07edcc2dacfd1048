import { describe, expect, it } from 'vitest';
import { fieldText } from './field-text.ts';

describe('fieldText', () => {
  it('writes dates, months and numbers as the language does', () => {
    expect(fieldText('date', '2025-12-24', 'de')).toBe('24.12.25');
    expect(fieldText('date', '2025-12-24', 'en')).toBe('24/12/25');
    expect(fieldText('monthAndYear', '2026-11', 'de')).toBe('11.2026');
    expect(fieldText('double', '27.5', 'de')).toBe('27,5');
    expect(fieldText('formula', '1424.300', 'fr')).toBe('1424,300');
    expect(fieldText('double', '27.5', 'en')).toBe('27.5');
  });
  it('leaves other kinds, and texts their kind cannot read, as they are', () => {
    expect(fieldText('string', '27.5', 'de')).toBe('27.5');
    expect(fieldText('year', '2026', 'de')).toBe('2026');
    expect(fieldText('date', 'unbekannt', 'de')).toBe('unbekannt');
    expect(fieldText('double', 'n/a', 'de')).toBe('n/a');
  });
});
