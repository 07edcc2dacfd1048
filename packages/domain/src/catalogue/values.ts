import { isValidDateText } from '../dates.ts';
import { normalizeNumericInput } from '../orders/numeric-input.ts';
import type { FieldDef } from './model.ts';

/**
 * What an activity stores for a field (docs/requirements/orders.md#attribute-value): the value, when it was captured
 * and, when the workshop keeps a protocol, who changed it. The unit is the catalogue's and is not repeated.
 */
export interface AttributeValue {
  value: string | boolean | string[];
  CaptureDate: string;
  LastModifier?: string;
}

export function attributeValue(value: AttributeValue['value'], capturedAt: Date, modifier?: string): AttributeValue {
  return modifier
    ? { value, CaptureDate: capturedAt.toISOString(), LastModifier: modifier }
    : { value, CaptureDate: capturedAt.toISOString() };
}

/** The value inside a stored attribute; a bare value (as an older client might send) is taken as it is. */
export function valueOf(stored: unknown): unknown {
  if (stored !== null && typeof stored === 'object' && !Array.isArray(stored) && 'value' in stored) {
    return (stored as { value: unknown }).value;
  }
  return stored;
}

export function isFilled(stored: unknown): boolean {
  const value = valueOf(stored);
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

export const MAX_TEXT_LENGTH = { string: 200, baseString: 200, option: 200, textarea: 4000 } as const;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * Why a value does not fit its field, as data: the editor says it in the user's language at the keyboard, the server
 * in English in its 400 (`valueProblem`). One rule for both (docs/requirements/validation.md#server-value-checks).
 */
export type ValueIssue =
  | { code: 'TEXT_EXPECTED' }
  | { code: 'NOT_A_CHOICE'; choices: readonly string[] }
  | { code: 'TEXT_TOO_LONG'; max: number }
  | { code: 'LIST_EXPECTED' }
  | { code: 'BOOLEAN_EXPECTED' }
  | { code: 'DATE_EXPECTED' }
  | { code: 'MONTH_EXPECTED' }
  | { code: 'YEAR_EXPECTED'; min: number; max: number }
  | { code: 'NUMBER_TEXT_EXPECTED' }
  | { code: 'NUMBER_EXPECTED' }
  | { code: 'TOO_MANY_DECIMALS'; max: number };

/** The years a year field takes: a wagon built, revised or due between these. */
export const YEAR_RANGE = { min: 1900, max: 2199 } as const;

export function valueIssue(field: FieldDef, value: unknown): ValueIssue | null {
  switch (field.kind) {
    case 'string':
    case 'baseString':
    case 'option':
    case 'textarea':
      if (typeof value !== 'string') return { code: 'TEXT_EXPECTED' };
      if (field.choices && !field.choices.includes(value)) return { code: 'NOT_A_CHOICE', choices: field.choices };
      return value.length > MAX_TEXT_LENGTH[field.kind]
        ? { code: 'TEXT_TOO_LONG', max: MAX_TEXT_LENGTH[field.kind] }
        : null;
    case 'multioption':
      return Array.isArray(value) &&
        value.every((item) => typeof item === 'string' && item.length <= MAX_TEXT_LENGTH.option)
        ? null
        : { code: 'LIST_EXPECTED' };
    case 'boolean':
      return typeof value === 'boolean' ? null : { code: 'BOOLEAN_EXPECTED' };
    case 'date':
      return typeof value === 'string' && isValidDateText(value) ? null : { code: 'DATE_EXPECTED' };
    case 'monthAndYear':
      return typeof value === 'string' && MONTH.test(value) ? null : { code: 'MONTH_EXPECTED' };
    case 'year': {
      const year = typeof value === 'string' && /^\d{4}$/.test(value) ? Number(value) : Number.NaN;
      return year >= YEAR_RANGE.min && year <= YEAR_RANGE.max ? null : { code: 'YEAR_EXPECTED', ...YEAR_RANGE };
    }
    case 'double':
    case 'formula': {
      if (typeof value !== 'string') return { code: 'NUMBER_TEXT_EXPECTED' };
      const normalized = normalizeNumericInput(value, { negatable: field.negatable ?? false });
      if (!normalized.ok || normalized.value !== value || value === '') return { code: 'NUMBER_EXPECTED' };
      const places = value.split('.')[1]?.length ?? 0;
      return field.decimals !== undefined && places > field.decimals
        ? { code: 'TOO_MANY_DECIMALS', max: field.decimals }
        : null;
    }
  }
}

/** An issue as the short English reason of the server's error message. */
export function describeIssue(issue: ValueIssue): string {
  switch (issue.code) {
    case 'TEXT_EXPECTED':
      return 'text expected';
    case 'NOT_A_CHOICE':
      return `one of ${issue.choices.join(', ')} expected`;
    case 'TEXT_TOO_LONG':
      return `at most ${issue.max} characters`;
    case 'LIST_EXPECTED':
      return 'list of texts expected';
    case 'BOOLEAN_EXPECTED':
      return 'true or false expected';
    case 'DATE_EXPECTED':
      return 'date YYYY-MM-DD expected';
    case 'MONTH_EXPECTED':
      return 'month YYYY-MM expected';
    case 'YEAR_EXPECTED':
      return `year YYYY from ${issue.min} to ${issue.max} expected`;
    case 'NUMBER_TEXT_EXPECTED':
      return 'number as text expected';
    case 'NUMBER_EXPECTED':
      return 'number expected';
    case 'TOO_MANY_DECIMALS':
      return `at most ${issue.max} decimals`;
  }
}

/** Why a value does not fit its field, as a short English reason for the error message; null when it fits. */
export function valueProblem(field: FieldDef, value: unknown): string | null {
  const issue = valueIssue(field, value);
  return issue ? describeIssue(issue) : null;
}

/** Why a stored attribute (parsed JSON) is not an attribute at all: an object with a value, capture time, modifier. */
export function attributeShapeProblem(stored: unknown): string | null {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored) || !('value' in stored)) {
    return 'object with value expected';
  }
  const { CaptureDate, LastModifier } = stored as Partial<Record<string, unknown>>;
  if (CaptureDate !== undefined && (typeof CaptureDate !== 'string' || !ISO_INSTANT.test(CaptureDate))) {
    return 'CaptureDate must be an ISO UTC time';
  }
  if (LastModifier !== undefined && typeof LastModifier !== 'string') return 'LastModifier must be text';
  return null;
}

/** Why a stored attribute (parsed JSON) does not fit its field; null when it fits. */
export function attributeProblem(field: FieldDef, stored: unknown): string | null {
  return attributeShapeProblem(stored) ?? valueProblem(field, (stored as { value: unknown }).value);
}
