// `npm run check:i18n`: fails when a catalogue lacks a key of another or leaves a value untranslated.
import { readFileSync } from 'node:fs';
import { LANGUAGES } from '@vers/domain';
import { type Catalogue, checkCatalogues, flatten } from '../src/i18n/catalogue-check.ts';

const dir = new URL('../src/i18n/locales/', import.meta.url);
const catalogues = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, JSON.parse(readFileSync(new URL(`${lang}.json`, dir), 'utf8')) as Catalogue]),
);
const cognates = JSON.parse(readFileSync(new URL('../src/i18n/cognates.json', import.meta.url), 'utf8')) as {
  universal: string[];
  perLanguage: Record<string, string[]>;
};
const problems = checkCatalogues(catalogues, cognates.perLanguage, cognates.universal);
const keys = flatten(catalogues.en ?? {}).size;
if (problems.length > 0) {
  console.error(`check:i18n: ${problems.length} problem(s) in ${LANGUAGES.length} catalogues:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`check:i18n: ${LANGUAGES.length} catalogues, ${keys} keys each, all translated`);
