import { describe, expect, it } from 'vitest';
import { LANGUAGES, LANGUAGE_NAMES, baseLanguage, byText, resolveLanguage } from './languages.ts';

describe('resolveLanguage', () => {
  it('prefers the stored setting', () => {
    expect(resolveLanguage('tr', ['en-GB'])).toBe('tr');
  });
  it('ignores a stored value that is not one of the 12 languages', () => {
    expect(resolveLanguage('xx', ['fr-CA'])).toBe('fr');
  });
  it('takes the first supported browser language without its region', () => {
    expect(resolveLanguage(null, ['ja-JP', 'pt', 'sv-SE', 'en'])).toBe('sv');
  });
  it('falls back to German', () => {
    expect(resolveLanguage(undefined, ['ja', 'es-ES'])).toBe('de');
    expect(resolveLanguage(null, [])).toBe('de');
  });
});

describe('languages', () => {
  it('are the twelve of the spec with German first', () => {
    expect(LANGUAGES).toEqual(['de', 'bg', 'cs', 'en', 'fr', 'hu', 'it', 'nl', 'pl', 'ro', 'sv', 'tr']);
    expect(Object.keys(LANGUAGE_NAMES).sort()).toEqual([...LANGUAGES].sort());
  });
  it('strip regions with either separator', () => {
    expect(baseLanguage('pt_BR')).toBe('pt');
    expect(baseLanguage('DE-at')).toBe('de');
  });
});

describe('byText', () => {
  const contractors = ['Wascosa', 'ČD Cargo', 'CFL cargo', 'DB Cargo', 'Ermewa'];
  it('sorts a letter with a diacritic beside its base letter in German, not after Z', () => {
    expect([...contractors].sort(byText('de'))).toEqual(['ČD Cargo', 'CFL cargo', 'DB Cargo', 'Ermewa', 'Wascosa']);
  });
  it('sorts Č as a letter of its own after C in Czech', () => {
    expect([...contractors].sort(byText('cs'))).toEqual(['CFL cargo', 'ČD Cargo', 'DB Cargo', 'Ermewa', 'Wascosa']);
  });
  it('compares digits as numbers', () => {
    expect(['Radsatz 10', 'Radsatz 2', 'Radsatz 1'].sort(byText('de'))).toEqual([
      'Radsatz 1',
      'Radsatz 2',
      'Radsatz 10',
    ]);
  });
  it('orders Cyrillic in Bulgarian', () => {
    expect(['Шкода', 'Бабино', 'Аврора'].sort(byText('bg'))).toEqual(['Аврора', 'Бабино', 'Шкода']);
  });
});
