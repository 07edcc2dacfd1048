import { readFileSync, readdirSync } from 'node:fs';
import { LANGUAGES } from '@vers/domain';
import type { Catalogue } from './catalogue-check.ts';

const webSrc = new URL('../', import.meta.url);

/** The texts of the server's PDF documents: checked with the app's, so that every language has them all. */
const serverDocuments = new URL('../../server/src/documents/locales/', webSrc);

/** The catalogue folders: the app's own, every feature's (`features/<name>/locales`) and the PDF documents'. */
export function catalogueFolders(): URL[] {
  const features = readdirSync(new URL('features/', webSrc), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => new URL(`features/${d.name}/locales/`, webSrc))
    .filter((dir) => {
      try {
        return readdirSync(dir).length > 0;
      } catch {
        return false;
      }
    });
  return [new URL('i18n/locales/', webSrc), ...features, serverDocuments];
}

/**
 * Each language's whole catalogue, merged from every folder. A top-level key defined by two folders is an
 * error: features own their keys.
 */
export function readCatalogues(): { catalogues: Record<string, Catalogue>; problems: string[] } {
  const problems: string[] = [];
  const catalogues: Record<string, Catalogue> = {};
  for (const language of LANGUAGES) catalogues[language] = {};
  for (const folder of catalogueFolders()) {
    const files = readdirSync(folder).sort();
    const expected = LANGUAGES.map((l) => `${l}.json`).sort();
    if (files.join() !== expected.join())
      problems.push(`${folder.pathname}: has ${files.join(', ')}, needs ${expected.join(', ')}`);
    for (const language of LANGUAGES) {
      let part: Catalogue;
      try {
        part = JSON.parse(readFileSync(new URL(`${language}.json`, folder), 'utf8')) as Catalogue;
      } catch (error) {
        problems.push(`${folder.pathname}${language}.json: ${(error as Error).message}`);
        continue;
      }
      const target = catalogues[language] as Catalogue;
      for (const [key, value] of Object.entries(part)) {
        if (key in target) problems.push(`${folder.pathname}${language}.json: top-level key "${key}" is defined twice`);
        target[key] = value;
      }
    }
  }
  return { catalogues, problems };
}
