import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, type Language, resolveLanguage } from '@vers/domain';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

type Catalogue = Record<string, unknown>;

// The app's catalogue plus one per feature (features/<name>/locales/<lang>.json), each under its own top-level
// keys. Only the language in use is downloaded.
const loaders = import.meta.glob<Catalogue>(['./locales/*.json', '../features/*/locales/*.json'], {
  import: 'default',
});

/**
 * Feature catalogues loaded only when their screens open: the field catalogue's labels (hundreds of keys) would
 * otherwise weigh on the login screen.
 */
const DEFERRED = ['catalogue'];
const folderOf = (path: string) => /\/features\/([^/]+)\/locales\//.exec(path)?.[1];
const isDeferred = (path: string) => DEFERRED.includes(folderOf(path) ?? '');
/** Deferred features asked for so far; a language switch loads them for the new language too. */
const wanted = new Set<string>();
const loaded = new Set<string>();

async function loadCatalogue(language: Language): Promise<void> {
  const own = Object.entries(loaders).filter(([path]) => path.endsWith(`/locales/${language}.json`));
  if (own.length === 0) throw new Error(`no catalogue for ${language}`);
  if (!i18next.hasResourceBundle(language, 'translation')) {
    const parts = await Promise.all(own.filter(([path]) => !isDeferred(path)).map(([, load]) => load()));
    i18next.addResourceBundle(language, 'translation', Object.assign({}, ...parts));
  }
  for (const [path, load] of own) {
    const feature = folderOf(path);
    if (!feature || !wanted.has(feature) || loaded.has(`${language}:${feature}`)) continue;
    i18next.addResourceBundle(language, 'translation', await load(), true, true);
    loaded.add(`${language}:${feature}`);
  }
}

/** Loads a deferred feature catalogue (e.g. `catalogue` for the order editor) in the current language. */
export async function loadFeatureCatalogue(feature: string): Promise<void> {
  wanted.add(feature);
  await loadCatalogue(currentLanguage());
}

export function initialLanguage(): Language {
  return resolveLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY), navigator.languages ?? [navigator.language]);
}

export async function initI18n(): Promise<void> {
  const language = initialLanguage();
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false }, // React escapes
    // Screens re-render when a deferred catalogue arrives.
    react: { bindI18nStore: 'added' },
    returnNull: false,
  });
  await loadCatalogue(language);
  document.documentElement.lang = language;
  // Re-render with the catalogue now present.
  await i18next.changeLanguage(language);
}

/** Switches the language and keeps the choice (local setting `vers-lang`). */
export async function changeLanguage(language: Language): Promise<void> {
  await loadCatalogue(language);
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return (i18next.resolvedLanguage ?? i18next.language ?? DEFAULT_LANGUAGE) as Language;
}
