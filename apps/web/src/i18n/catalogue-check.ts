/** Checks of the language catalogues: same keys everywhere, no empty or untranslated values. */
export type Catalogue = { [key: string]: string | Catalogue };

export function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (value: string) => [...value.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/**
 * `cognates`: per language, the values that may equal the English one because they are the same word
 * there (e.g. French "Documents"); `universal`: values that are the same in every language (the name VERS).
 */
export function checkCatalogues(
  catalogues: Record<string, Catalogue>,
  cognates: Record<string, readonly string[]>,
  universal: readonly string[],
): string[] {
  const problems: string[] = [];
  const flat = Object.fromEntries(Object.entries(catalogues).map(([lang, c]) => [lang, flatten(c)]));
  const allKeys = new Set(Object.values(flat).flatMap((m) => [...m.keys()]));
  const english = flat.en;
  if (!english) return ['the English catalogue (en) is missing'];
  for (const [lang, entries] of Object.entries(flat)) {
    for (const key of allKeys) {
      const value = entries.get(key);
      if (value === undefined) {
        problems.push(`${lang}: missing key ${key}`);
        continue;
      }
      if (value.trim() === '') problems.push(`${lang}: empty value for ${key}`);
      const reference = english.get(key);
      if (reference === undefined) continue;
      if (placeholders(value).join() !== placeholders(reference).join()) {
        problems.push(
          `${lang}: ${key} has placeholders {${placeholders(value)}} but English has {${placeholders(reference)}}`,
        );
      }
      if (lang !== 'en' && value === reference && !universal.includes(value) && !cognates[lang]?.includes(value)) {
        problems.push(`${lang}: ${key} is not translated ("${value}" as in English)`);
      }
    }
  }
  return problems;
}
