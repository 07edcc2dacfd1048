import { LANGUAGE_STORAGE_KEY, type Language, resolveLanguage } from '@vers/domain';

export type Catalogue = Record<string, unknown>;

/**
 * Each language's catalogues needed from the start (the app's and every feature's but the deferred ones), one
 * chunk per language (bundles/<lang>.ts): one request instead of one per feature.
 */
const BUNDLES = import.meta.glob<Catalogue>('./bundles/*.ts', { import: 'default' });

/**
 * Feature catalogues loaded only when their screens open: the field catalogue's labels (hundreds of keys) would
 * otherwise weigh on the login screen. The bundles leave out the same folders (their `!` patterns).
 */
export const DEFERRED_LOADERS = import.meta.glob<Catalogue>('../features/catalogue/locales/*.json', {
  import: 'default',
});

export function initialLanguage(): Language {
  return resolveLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY), navigator.languages ?? [navigator.language]);
}

/**
 * The language's start catalogue. Called first by the small `early` entry (early.ts) as the page begins to load,
 * then by the app: both import the same chunk, which the browser fetches once.
 */
export function loadStartCatalogue(language: Language): Promise<Catalogue> {
  const load = BUNDLES[`./bundles/${language}.ts`];
  if (!load) return Promise.reject(new Error(`no catalogue for ${language}`));
  return load();
}
