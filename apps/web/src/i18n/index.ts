import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, type Language } from '@vers/domain';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFERRED_LOADERS, initialLanguage, loadStartCatalogue } from './start-catalogue.ts';

export { initialLanguage };

// The language's start catalogue is one chunk (start-catalogue.ts), which the `early` entry already began to fetch;
// deferred feature catalogues are loaded when their screens open. Only the language in use is downloaded.
const folderOf = (path: string) => /\/features\/([^/]+)\/locales\//.exec(path)?.[1];
/** Deferred features asked for so far; a language switch loads them for the new language too. */
const wanted = new Set<string>();
const loaded = new Set<string>();

async function loadCatalogue(language: Language): Promise<void> {
  if (!i18next.hasResourceBundle(language, 'translation')) {
    i18next.addResourceBundle(language, 'translation', { ...(await loadStartCatalogue(language)) });
  }
  for (const [path, load] of Object.entries(DEFERRED_LOADERS)) {
    const feature = folderOf(path);
    if (!path.endsWith(`/locales/${language}.json`) || !feature || !wanted.has(feature)) continue;
    if (loaded.has(`${language}:${feature}`)) continue;
    i18next.addResourceBundle(language, 'translation', await load(), true, true);
    loaded.add(`${language}:${feature}`);
  }
}

/** Loads a deferred feature catalogue (e.g. `catalogue` for the order editor) in the current language. */
export async function loadFeatureCatalogue(feature: string): Promise<void> {
  wanted.add(feature);
  await loadCatalogue(currentLanguage());
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
