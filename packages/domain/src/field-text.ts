import type { FieldDef } from './catalogue/model.ts';
import { formatDate, formatMonth } from './dates.ts';
import type { Language } from './languages.ts';
import { formatNumber } from './numbers.ts';

/**
 * A field's stored text as the screens show it in the language, by the field's kind: a date "24.12.25", a month
 * "12.2025", a number "27,5" in German; other kinds, and a text their kind cannot read, as they are. The editor's
 * history and conflict notes and the unsent-changes page read values through it, so a value reads there as its field
 * shows it. (The PDFs write four-digit years, pdf/labels.ts.)
 */
export function fieldText(kind: FieldDef['kind'], text: string, language: Language): string {
  switch (kind) {
    case 'date':
      return formatDate(text, language) || text;
    case 'monthAndYear':
      return formatMonth(text, language) || text;
    case 'double':
    case 'formula':
      return formatNumber(text, language);
    default:
      return text;
  }
}
