// @vitest-environment node
import { ALL_ORDER_TYPES } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { flatten } from '../../../i18n/catalogue-check.ts';
import { readCatalogues } from '../../../i18n/catalogue-files.ts';
import { catalogueLabelKeys } from './labels.ts';

// The language check makes every language carry the English keys; this makes English carry the catalogue's.
describe('the field catalogue in the language files', () => {
  const english = flatten(readCatalogues().catalogues.en ?? {});

  it.each(ALL_ORDER_TYPES)('names every %s tab, chapter, field and entry', (type) => {
    const keys = catalogueLabelKeys(type);
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.filter((key) => !english.has(key))).toEqual([]);
  });
});
