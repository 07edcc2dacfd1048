// `npm run check:i18n`: fails when a catalogue lacks a key of another or leaves a value untranslated.
import { readFileSync } from 'node:fs';
import { ERROR_CODES, LANGUAGES } from '@vers/domain';
import { checkCatalogues, flatten } from '../src/i18n/catalogue-check.ts';
import { catalogueFolders, readCatalogues } from '../src/i18n/catalogue-files.ts';

const cognates = JSON.parse(readFileSync(new URL('../src/i18n/cognates.json', import.meta.url), 'utf8')) as {
  universal: string[];
  perLanguage: Record<string, string[]>;
};
const { catalogues, problems } = readCatalogues();
problems.push(...checkCatalogues(catalogues, cognates.perLanguage, cognates.universal));
const english = flatten(catalogues.en ?? {});
for (const code of ERROR_CODES)
  if (!english.has(`errors.${code}`)) problems.push(`en: no message for error code ${code}`);
if (problems.length > 0) {
  console.error(`check:i18n: ${problems.length} problem(s):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `check:i18n: ${LANGUAGES.length} languages, ${catalogueFolders().length} catalogue folders, ${english.size} keys each, all translated`,
);
