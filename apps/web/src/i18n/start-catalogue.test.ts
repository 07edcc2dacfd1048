// @vitest-environment node
import { readFileSync, readdirSync } from 'node:fs';
import { LANGUAGES } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { DEFERRED_LOADERS, loadStartCatalogue } from './start-catalogue.ts';

const src = new URL('../', import.meta.url);
const topKeys = (file: URL) => Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object);
const featureFolders = readdirSync(new URL('features/', src)).filter((name) => {
  try {
    return readdirSync(new URL(`features/${name}/locales/`, src)).length > 0;
  } catch {
    return false;
  }
});
const deferredLoaded = new Set(Object.keys(DEFERRED_LOADERS).map((path) => /\/features\/([^/]+)\//.exec(path)?.[1]));
/** The number scanner's texts load with its dialog (features/scan/ScanDialog.tsx), not through DEFERRED_LOADERS. */
const deferred = new Set([...deferredLoaded, 'scan']);

describe('the start catalogue of each language', () => {
  it.each(LANGUAGES)('%s: holds the app and every feature but the deferred ones, nothing else', async (language) => {
    const expected = [
      ...topKeys(new URL(`i18n/locales/${language}.json`, src)),
      ...featureFolders
        .filter((name) => !deferred.has(name))
        .flatMap((name) => topKeys(new URL(`features/${name}/locales/${language}.json`, src))),
    ];
    const bundle = await loadStartCatalogue(language);
    expect(Object.keys(bundle).sort()).toEqual([...new Set(expected)].sort());
  });

  it('leaves out the deferred features, which load by themselves in every language', () => {
    expect([...deferredLoaded]).toEqual(['catalogue']);
    expect(Object.keys(DEFERRED_LOADERS)).toHaveLength(LANGUAGES.length);
  });
});
