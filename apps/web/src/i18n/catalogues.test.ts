// @vitest-environment node
import { AUDIT_ACTIONS, ERROR_CODES } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { checkCatalogues, flatten } from './catalogue-check.ts';
import { readCatalogues } from './catalogue-files.ts';
import cognates from './cognates.json';

describe('language catalogues', () => {
  const { catalogues, problems } = readCatalogues();

  it('exist in every folder for exactly the twelve languages, without a key owned twice', () => {
    expect(problems).toEqual([]);
  });

  it('have every key in every language, translated, with the same placeholders', () => {
    expect(checkCatalogues(catalogues, cognates.perLanguage, cognates.universal)).toEqual([]);
  });

  it('have a message for every error code of the API', () => {
    const keys = flatten(catalogues.en ?? {});
    expect(ERROR_CODES.filter((code) => !keys.has(`errors.${code}`))).toEqual([]);
  });

  it('name every kind of audit entry', () => {
    const keys = flatten(catalogues.en ?? {});
    expect(AUDIT_ACTIONS.filter((action) => !keys.has(`workshop.audit.action.${action}`))).toEqual([]);
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
