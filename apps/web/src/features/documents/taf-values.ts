import {
  type Language,
  TAF_VALUES,
  TAF_VALUE_KEYS,
  type TafValueKey,
  type TafValues,
  formatRange,
  normalizeNumericInput,
  tafValueSchema,
} from '@vers/domain';

/**
 * The export dialog's values for the TAF TSI dataset (docs/taf-tsi.md): what the server named missing (409
 * EXPORT_INCOMPLETE), as the user types them, checked with the server's own rules (`tafValueSchema`) before they are
 * sent. Each field's text: a date as `YYYY-MM-DD`, a yes/no as `true`/`false`, a code as the code, numbers as typed.
 */
export type TafTexts = Partial<Record<TafValueKey, string>>;

/** The fields of the administrative data (the rest is design data), for the dialog's two groups. */
const FIRST_DESIGN_KEY: TafValueKey = 'LetterMarking';
export const isAdministrative = (key: TafValueKey) =>
  TAF_VALUE_KEYS.indexOf(key) < TAF_VALUE_KEYS.indexOf(FIRST_DESIGN_KEY);

/**
 * The fields to show, in schema order: every one asked for so far, and a suspension's date while its yes/no field says
 * yes; a date asked for while its yes/no field, now shown, says something else is not (the server would not need it).
 */
export function shownTafFields(asked: ReadonlySet<TafValueKey>, texts: TafTexts): TafValueKey[] {
  return TAF_VALUE_KEYS.filter((key) => {
    const condition: string | undefined = (TAF_VALUES[key] as { neededWhen?: string }).neededWhen;
    if (!condition) return asked.has(key);
    const conditionKey = condition as TafValueKey;
    if (asked.has(conditionKey)) return texts[conditionKey] === 'true';
    return asked.has(key);
  });
}

/** The field's text as the value POST export takes; undefined when it cannot be one (the problem says why). */
function valueOf(key: TafValueKey, text: string): string | number | boolean | undefined {
  const input = TAF_VALUES[key].input;
  switch (input.type) {
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'integer': {
      const typed = normalizeNumericInput(text);
      return typed.ok && /^\d+$/.test(typed.value) ? Number(typed.value) : undefined;
    }
    case 'decimal': {
      // A comma as well as a dot; no rounding: more places than allowed are refused, not changed.
      const typed = normalizeNumericInput(text);
      return typed.ok ? typed.value : undefined;
    }
    case 'country':
      return text.trim().toUpperCase();
    default:
      return text.trim();
  }
}

export interface TafProblem {
  key: string;
  values?: Record<string, string>;
}

/** What a field needs, said under it (also before anything is typed); null when it needs no word. */
export function tafHint(key: TafValueKey, language: Language): TafProblem | null {
  const input = TAF_VALUES[key].input;
  switch (input.type) {
    case 'country':
      return { key: 'documents.taf.hint.country' };
    case 'ein':
      return { key: 'documents.taf.hint.ein' };
    case 'integer':
      return { key: 'documents.taf.hint.integer', values: { range: formatRange(input, language) } };
    case 'decimal':
      return {
        key: 'documents.taf.hint.decimal',
        values: { range: formatRange({ min: Number(input.min), max: Number(input.max) }, language) },
      };
    case 'text':
      return { key: 'documents.taf.hint.text', values: { max: String(input.maxLength) } };
    default:
      return null;
  }
}

/** Why the field's text cannot be sent; null when it can. */
export function tafProblem(key: TafValueKey, text: string | undefined, language: Language): TafProblem | null {
  if (text === undefined || text.trim() === '') return { key: 'documents.taf.required' };
  const value = valueOf(key, text);
  if (value !== undefined && tafValueSchema(key).safeParse(value).success) return null;
  return tafHint(key, language) ?? { key: 'documents.taf.invalid' };
}

/** The values of the shown fields as POST export's `tafTsi`, or the problems by field when any cannot be sent. */
export function tafValues(
  shown: readonly TafValueKey[],
  texts: TafTexts,
  language: Language,
): { ok: true; values: TafValues } | { ok: false; problems: Partial<Record<TafValueKey, TafProblem>> } {
  const problems: Partial<Record<TafValueKey, TafProblem>> = {};
  const values: Record<string, unknown> = {};
  for (const key of shown) {
    const problem = tafProblem(key, texts[key], language);
    if (problem) problems[key] = problem;
    else values[key] = tafValueSchema(key).parse(valueOf(key, texts[key] ?? ''));
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, values: values as TafValues };
}
