export const LANGUAGES = ['de', 'bg', 'cs', 'en', 'fr', 'hu', 'it', 'nl', 'pl', 'ro', 'sv', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';
/** Local-storage key of the chosen language (docs/requirements/administration.md#languages). */
export const LANGUAGE_STORAGE_KEY = 'vers-lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language without region: `de-AT` -> `de`. */
export function baseLanguage(tag: string): string {
  return tag.toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * Stored setting first, else the first supported browser language, else German
 * (docs/requirements/administration.md#languages).
 */
export function resolveLanguage(stored: string | null | undefined, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const base = baseLanguage(tag);
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** Each language's own name, for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  de: 'Deutsch',
  bg: 'Български',
  cs: 'Čeština',
  en: 'English',
  fr: 'Français',
  hu: 'Magyar',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  ro: 'Română',
  sv: 'Svenska',
  tr: 'Türkçe',
};

const collators = new Map<Language, Intl.Collator>();

/**
 * Orders texts the way the language writes its alphabet (Intl.Collator): "ČD Cargo" beside "CFL" in German, after it
 * in Czech, where Č is a letter of its own, never after "Z" as by code points. Digits compare as numbers ("Wheelset 2"
 * before "Wheelset 10").
 */
export function byText(language: Language): (a: string, b: string) => number {
  let collator = collators.get(language);
  if (!collator) {
    collator = new Intl.Collator(language, { numeric: true });
    collators.set(language, collator);
  }
  return collator.compare;
}
