import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import dayjs from 'dayjs';
import type { FieldDef, Language, Unit } from '@vers/domain';
import { CATALOGUE_LOCALES, DOCUMENT_LOCALES } from '../../paths.ts';

/**
 * The texts of the PDF documents: field, tab, chapter, unit and entry labels from the web app's catalogue
 * translations (the editor's own words), and the documents' own texts from `documents/locales`. Each language is
 * read once. A missing text falls back to the key's last segment, as a document must never fail for a label.
 */

type Tree = { [key: string]: string | Tree };

const cache = new Map<string, Map<string, string>>();

/** The flattened language file: `catalogue.field.Eigengewicht` → text. */
export function read(folder: string, language: Language): Map<string, string> {
  const id = join(folder, language);
  const known = cache.get(id);
  if (known) return known;
  const flat = new Map<string, string>();
  const walk = (tree: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value === 'string') flat.set(`${prefix}${key}`, value);
      else walk(value, `${prefix}${key}.`);
    }
  };
  walk(JSON.parse(readFileSync(join(folder, `${language}.json`), 'utf8')) as Tree, '');
  cache.set(id, flat);
  return flat;
}

export const interpolate = (text: string, params: Record<string, string | number>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
    params[name] === undefined ? match : String(params[name]),
  );

const lastSegment = (key: string) => key.split('.').at(-1) ?? key;

export type Translate = (key: string, params?: Record<string, string | number>) => string;

export interface Texts {
  language: Language;
  /** A document text below `pdf.`, e.g. `t('title.PREVIEW')`. */
  t: Translate;
  /** A catalogue text below `catalogue.`, e.g. `catalogue('tab.WAGON.basedata')`. */
  catalogue: Translate;
  field: (field: FieldDef) => string;
  unit: (unit: Unit | undefined) => string;
  /** The title of a collection entry as the editor shows it: "Radsatz 2", "Rad links". */
  entry: (differentiator: FieldDef, value: string) => string;
  date: (value: unknown) => string;
  month: (value: unknown) => string;
  /** An option field's value as its value list names it in the document's language; the code where none does. */
  option: (field: FieldDef, value: string) => string;
}

/** Value list texts of the document's language: list key → value → text. */
export type OptionTexts = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Date patterns per language: four-digit years on a document that is kept for the vehicle's whole life. */
const DATE_PATTERNS: Record<Language, { date: string; month: string }> = {
  de: { date: 'DD.MM.YYYY', month: 'MM.YYYY' },
  bg: { date: 'DD.MM.YYYY', month: 'MM.YYYY' },
  cs: { date: 'DD.MM.YYYY', month: 'MM.YYYY' },
  en: { date: 'DD/MM/YYYY', month: 'MM/YYYY' },
  fr: { date: 'DD/MM/YYYY', month: 'MM/YYYY' },
  hu: { date: 'YYYY.MM.DD.', month: 'YYYY.MM.' },
  it: { date: 'DD/MM/YYYY', month: 'MM/YYYY' },
  nl: { date: 'DD-MM-YYYY', month: 'MM-YYYY' },
  pl: { date: 'DD.MM.YYYY', month: 'MM.YYYY' },
  ro: { date: 'DD.MM.YYYY', month: 'MM.YYYY' },
  sv: { date: 'YYYY-MM-DD', month: 'YYYY-MM' },
  tr: { date: 'DD.MM.YYYY', month: 'MM.YYYY' },
};

function formatWith(value: unknown, pattern: string): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof Date)) return String(value);
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.format(pattern) : String(value);
}

export function texts(language: Language, optionTexts: OptionTexts = {}): Texts {
  const own = read(DOCUMENT_LOCALES, language);
  const catalogueTexts = read(CATALOGUE_LOCALES, language);
  const lookup =
    (flat: Map<string, string>, prefix: string): Translate =>
    (key, params = {}) =>
      interpolate(flat.get(`${prefix}${key}`) ?? lastSegment(key), params);
  const t = lookup(own, 'pdf.');
  const catalogue = lookup(catalogueTexts, 'catalogue.');
  const has = (key: string) => catalogueTexts.has(`catalogue.${key}`);
  const patterns = DATE_PATTERNS[language];
  return {
    language,
    t,
    catalogue,
    field: (field) => catalogue(`field.${field.label ?? lastSegment(field.path)}`),
    unit: (unit) => (unit === undefined ? '' : has(`unit.${unit}`) ? catalogue(`unit.${unit}`) : unit),
    entry: (differentiator, value) => {
      const path = differentiator.path;
      const shown =
        path === 'Side'
          ? has(`side.${value}`)
            ? catalogue(`side.${value}`)
            : value
          : has(`entryValue.${path}.${value}`)
            ? catalogue(`entryValue.${path}.${value}`)
            : value;
      return has(`entry.${lastSegment(path)}`) ? catalogue(`entry.${lastSegment(path)}`, { value: shown }) : shown;
    },
    date: (value) => formatWith(value, patterns.date),
    month: (value) => formatWith(value, patterns.month),
    option: (field, value) => (field.list ? optionTexts[field.list]?.[value] : undefined) || value,
  };
}
