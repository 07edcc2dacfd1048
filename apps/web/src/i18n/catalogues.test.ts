// @vitest-environment node
import { readFileSync, readdirSync } from 'node:fs';
import { LANGUAGES } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { type Catalogue, checkCatalogues } from './catalogue-check.ts';
import cognates from './cognates.json';

const dir = new URL('./locales/', import.meta.url);
const read = (file: string) => JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Catalogue;

describe('language catalogues', () => {
  it('exist for exactly the twelve languages', () => {
    expect(readdirSync(dir).sort()).toEqual(LANGUAGES.map((l) => `${l}.json`).sort());
  });

  it('have every key in every language, translated, with the same placeholders', () => {
    const catalogues = Object.fromEntries(LANGUAGES.map((l) => [l, read(`${l}.json`)]));
    expect(checkCatalogues(catalogues, cognates.perLanguage, cognates.universal)).toEqual([]);
  });
});

describe('the catalogue check', () => {
  const en = { a: { title: 'Orders', hello: 'Hello {{name}}' } };
  it('reports a missing key', () => {
    expect(checkCatalogues({ en, de: { a: { title: 'Aufträge' } } }, {}, [])).toEqual(['de: missing key a.hello']);
  });
  it('reports an untranslated value unless it is a listed cognate', () => {
    const de = { a: { title: 'Orders', hello: 'Hallo {{name}}' } };
    expect(checkCatalogues({ en, de }, {}, [])).toEqual(['de: a.title is not translated ("Orders" as in English)']);
    expect(checkCatalogues({ en, de }, { de: ['Orders'] }, [])).toEqual([]);
  });
  it('reports lost placeholders and empty values', () => {
    const de = { a: { title: ' ', hello: 'Hallo {{nom}}' } };
    expect(checkCatalogues({ en, de }, {}, [])).toEqual([
      'de: empty value for a.title',
      'de: a.hello has placeholders {nom} but English has {name}',
    ]);
  });
});
